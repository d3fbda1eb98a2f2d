// The target app's events (app-*): the reducers of model.ts on its state, then a reread
// on (re)connect and the announcement of a run's end.
import type { On } from '../../dispatch';
import type { FeatureContext } from '../feature';
import { announceRun, loadApp } from './actions';
import { applyAppDoc, applyRunFinished, applyRunProgress, type TargetAppModel } from './model';
import { targetApp } from './state.svelte';

export function register(on: On, state: TargetAppModel = targetApp): void {
  on('app-updated', (doc) => applyAppDoc(state, doc));
  on('app-run-progress', (p) => applyRunProgress(state, p));
  on('app-run-finished', (f) => {
    applyRunFinished(state, f);
  });
}

export function effects({ on }: FeatureContext): void {
  on('snapshot', () => void loadApp());
  on('app-run-finished', (f) => {
    // The reducer ended the run shown only when this was its end.
    if (!targetApp.run && targetApp.finished?.runId === f.runId) announceRun(f);
  });
}

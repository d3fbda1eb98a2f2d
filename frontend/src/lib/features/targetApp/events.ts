// The target app's events (target-app-*): the reducers of model.ts on its state, then a reread
// on (re)connect and the announcement of a run's end.
import type { On } from '../../dispatch';
import type { FeatureContext } from '../feature';
import { announceRun, loadTargetApp } from './actions';
import { applyTargetAppDoc, applyRunFinished, applyRunProgress, type TargetAppModel } from './model';
import { targetApp } from './state.svelte';

export function register(on: On, state: TargetAppModel = targetApp): void {
  on('target-app-updated', (doc) => applyTargetAppDoc(state, doc));
  on('target-app-run-progress', (p) => applyRunProgress(state, p));
  on('target-app-run-finished', (f) => {
    applyRunFinished(state, f);
  });
}

export function effects({ on, transport }: FeatureContext): void {
  on('snapshot', () => void loadTargetApp(transport));
  on('target-app-run-finished', (f) => {
    // The reducer ended the run shown only when this was its end.
    if (!targetApp.run && targetApp.finished?.runId === f.runId) announceRun(f);
  });
}

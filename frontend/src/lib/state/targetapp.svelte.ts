import { applyAppDoc, applyRunFinished, applyRunProgress, type TargetAppModel, type RunView } from '../targetAppEvents';
import type { On } from '../dispatch';
import type { AppDoc, AppRunFinished } from '../wire.gen';

/** The target app (the user's Android app) on the selected device: GET /api/app and the app-* events. */
export class TargetAppState implements TargetAppModel {
  doc = $state<AppDoc | null>(null);
  run = $state<RunView | null>(null);
  finished = $state<AppRunFinished | null>(null);
  /** A Bring it back request is on its way. */
  launching = $state(false);
  /** A Run app request is on its way (before its first progress event). */
  starting = $state(false);
}

export const targetApp = new TargetAppState();

/** Registers the reducers of the app-* events. */
export function registerTargetApp(on: On, state: TargetAppModel = targetApp): void {
  on('app-updated', (doc) => applyAppDoc(state, doc));
  on('app-run-progress', (p) => applyRunProgress(state, p));
  on('app-run-finished', (f) => {
    applyRunFinished(state, f);
  });
}

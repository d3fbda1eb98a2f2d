import { applyAppDoc, applyRunFinished, applyRunProgress, type AppModel, type RunView } from '../appEvents';
import type { On } from '../dispatch';
import type { AppDoc, AppRunFinished } from '../wire.gen';

/** The user's app on the selected device: GET /api/app and the app-* events. */
export class AppInfoState implements AppModel {
  doc = $state<AppDoc | null>(null);
  run = $state<RunView | null>(null);
  finished = $state<AppRunFinished | null>(null);
  /** A Bring it back request is on its way. */
  launching = $state(false);
  /** A Run app request is on its way (before its first progress event). */
  starting = $state(false);
}

export const appInfo = new AppInfoState();

/** Registers the reducers of the app-* events. */
export function registerAppInfo(on: On, state: AppModel = appInfo): void {
  on('app-updated', (doc) => applyAppDoc(state, doc));
  on('app-run-progress', (p) => applyRunProgress(state, p));
  on('app-run-finished', (f) => {
    applyRunFinished(state, f);
  });
}

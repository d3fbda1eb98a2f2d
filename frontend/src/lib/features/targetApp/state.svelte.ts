import type { TargetAppModel, RunView } from './model';
import type { AppDoc, AppRunFinished } from '../../wire.gen';

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

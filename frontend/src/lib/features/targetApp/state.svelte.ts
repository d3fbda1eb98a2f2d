import type { TargetAppModel, RunView } from './model';
import type { TargetAppDoc, TargetAppRunFinished } from '../../wire.gen';

/** The target app (the user's Android app) on the selected device: GET /api/target-app and the target-app-* events. */
export class TargetAppState implements TargetAppModel {
  doc = $state<TargetAppDoc | null>(null);
  run = $state<RunView | null>(null);
  finished = $state<TargetAppRunFinished | null>(null);
  /** A Bring it back request is on its way. */
  launching = $state(false);
  /** A Run app request is on its way (before its first progress event). */
  starting = $state(false);
}

export const targetApp = new TargetAppState();

// The reducers of the target-app-* events on the target app's state, one per event. Pure over
// a plain model so unit tests drive them directly; events.ts
// registers them on the live state.
import type { TargetAppDoc, TargetAppRunFinished, TargetAppRunProgress, TargetAppRunStage } from '../../wire.gen';

/** A build-install-launch in progress, as the console shows it. */
export interface RunView {
  runId: string;
  stage: TargetAppRunStage;
  /** 0..1, or -1 while Gradle's task count is not known yet. */
  fraction: number;
  message: string;
  task: string;
  tasks: number;
}

export interface TargetAppModel {
  doc: TargetAppDoc | null;
  run: RunView | null;
  finished: TargetAppRunFinished | null;
}

/** Where each stage sits on the one progress bar: the build is most of the wait. */
const STAGE_SPAN: Record<TargetAppRunStage, [number, number]> = {
  build: [0, 0.8],
  install: [0.8, 0.92],
  launch: [0.92, 0.97],
  confirm: [0.97, 1],
};

/** The bar's overall fraction for one stage's progress, or -1 when indeterminate. */
export function overall(stage: TargetAppRunStage, fraction: number): number {
  const [from, to] = STAGE_SPAN[stage] ?? [0, 1];
  if (fraction < 0) return stage === 'build' ? -1 : from;
  return from + (to - from) * Math.min(1, fraction);
}

/** target-app-updated: the app's install and focus; a reloaded console learns of a run in progress from it. */
export function applyTargetAppDoc(model: TargetAppModel, doc: TargetAppDoc): void {
  model.doc = doc;
  // A document read before the run ended (a target-app-updated computed while it finished, a
  // GET /api/target-app still on its way) names a run that is over: it must not bring it back.
  const ended = doc.running && model.finished?.runId === doc.running.runId;
  if (doc.running && !ended && (!model.run || model.run.runId !== doc.running.runId)) {
    const p = doc.running.last;
    model.run = { runId: doc.running.runId, stage: p.stage, fraction: overall(p.stage, p.fraction), message: p.message ?? '', task: p.task ?? '', tasks: p.tasks ?? 0 };
  }
}

/** target-app-run-progress */
export function applyRunProgress(model: TargetAppModel, p: TargetAppRunProgress): void {
  if (model.finished?.runId === p.runId) return;
  const prev = model.run && model.run.runId === p.runId ? model.run : null;
  model.run = {
    runId: p.runId,
    stage: p.stage,
    fraction: overall(p.stage, p.fraction),
    message: p.message || (p.stage === 'build' ? prev?.message ?? '' : ''),
    task: p.task || (p.stage === prev?.stage ? prev.task : ''),
    tasks: p.tasks ?? prev?.tasks ?? 0,
  };
}

/** target-app-run-finished: ends the run shown, unless it is another run's end. Says whether it did. */
export function applyRunFinished(model: TargetAppModel, f: TargetAppRunFinished): boolean {
  if (model.run && model.run.runId !== f.runId) return false;
  model.run = null;
  model.finished = f;
  return true;
}

/** "2 h", "5 min", "3 d": how long before the last edit the app was installed. */
export function ago(ms: number): string {
  const min = Math.round(ms / 60000);
  if (min < 60) return `${Math.max(1, min)} min`;
  const h = Math.round(min / 60);
  if (h < 48) return `${h} h`;
  return `${Math.round(h / 24)} d`;
}

/** The chip's stale mark, or '' when the install is not older than the sources. */
export function staleMark(doc: TargetAppDoc | null): string {
  if (!doc?.sourcesNewerThanInstall || !doc.installedAt || !doc.lastEditAt) return '';
  return `Installed ${ago(Date.parse(doc.lastEditAt) - Date.parse(doc.installedAt))} before your last edit`;
}

/** Whether the console should say the app is not in front. */
export function notInFront(doc: TargetAppDoc | null, run: RunView | null): boolean {
  return Boolean(doc?.available && doc.installed && doc.serial && !doc.foreground && doc.focusedPackage && !run);
}

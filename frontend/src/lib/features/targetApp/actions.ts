// The target app (the user's Android app): reading it, running it (build, install,
// launch) and bringing it back to the front. Progress and outcomes arrive as events
// (events.ts).
import { targetApp } from './state.svelte';
import { app } from '../session/state.svelte';
import type { Transport } from '../../transport';
import type { TargetAppRunFinished } from '../../wire.gen';
import { report } from '../../actions/report';

/** Reads the app once (start-up, reconnect); changes then arrive as target-app-updated. */
export async function loadTargetApp({ api }: Transport): Promise<void> {
  try {
    targetApp.doc = await api.targetApp();
  } catch (err) {
    report(err, 'Could not read the app');
  }
}

export async function runTargetApp({ api }: Transport): Promise<void> {
  if (targetApp.run || targetApp.starting) return;
  targetApp.starting = true;
  app.clearTopic('app-run');
  try {
    const r = await api.runTargetApp();
    if (!targetApp.run) targetApp.run = { runId: r.runId, stage: 'build', fraction: -1, message: 'Starting Gradle…', task: '', tasks: 0 };
  } catch (err) {
    report(err, 'Could not run the app');
  } finally {
    targetApp.starting = false;
  }
}

export async function bringTargetAppBack({ api }: Transport): Promise<void> {
  if (targetApp.launching) return;
  targetApp.launching = true;
  try {
    await api.launchTargetApp();
  } catch (err) {
    report(err, 'Could not bring the app back');
  } finally {
    targetApp.launching = false;
  }
}

/** Says how a run ended: a short success, or what failed with Gradle's lines. */
export function announceRun(f: TargetAppRunFinished): void {
  const name = targetApp.doc?.label || f.result.applicationId;
  if (f.ok) {
    app.notify('success', `${name} is installed and in front (launched in ${f.result.launchMs} ms).`, { topic: 'app-run' });
    return;
  }
  const detail = f.lines?.length ? f.lines.join('\n') : undefined;
  app.notify('error', f.error || 'The run failed.', { topic: 'app-run', detail });
}

// The target app (the user's Android app): reading it, running it (build, install,
// launch) and bringing it back to the front. Progress and outcomes arrive as events
// (lib/targetAppEvents.ts).
import { targetApp } from './state.svelte';
import { app } from '../session/state.svelte';
import { transport } from '../../transport';
import type { AppRunFinished } from '../../wire.gen';
import { report } from '../../actions/report';

/** Reads the app once (start-up, reconnect); changes then arrive as app-updated. */
export async function loadApp(): Promise<void> {
  try {
    targetApp.doc = await transport.api.app();
  } catch (err) {
    report(err, 'Could not read the app');
  }
}

export async function runApp(): Promise<void> {
  if (targetApp.run || targetApp.starting) return;
  targetApp.starting = true;
  app.clearTopic('app-run');
  try {
    const r = await transport.api.runApp();
    if (!targetApp.run) targetApp.run = { runId: r.runId, stage: 'build', fraction: -1, message: 'Starting Gradle…', task: '', tasks: 0 };
  } catch (err) {
    report(err, 'Could not run the app');
  } finally {
    targetApp.starting = false;
  }
}

export async function bringAppBack(): Promise<void> {
  if (targetApp.launching) return;
  targetApp.launching = true;
  try {
    await transport.api.launchApp();
  } catch (err) {
    report(err, 'Could not bring the app back');
  } finally {
    targetApp.launching = false;
  }
}

/** Says how a run ended: a short success, or what failed with Gradle's lines. */
export function announceRun(f: AppRunFinished): void {
  const name = targetApp.doc?.label || f.result.applicationId;
  if (f.ok) {
    app.notify('success', `${name} is installed and in front (launched in ${f.result.launchMs} ms).`, { topic: 'app-run' });
    return;
  }
  const detail = f.lines?.length ? f.lines.join('\n') : undefined;
  app.notify('error', f.error || 'The run failed.', { topic: 'app-run', detail });
}

// The user's app: reading it, running it (build, install, launch) and bringing it
// back to the front. Progress and outcomes arrive as events (lib/appEvents.ts).
import { appInfo } from '../state/appinfo.svelte';
import { app } from '../state/app.svelte';
import { transport } from '../transport';
import type { AppRunFinished } from '../wire.gen';
import { report } from './report';

/** Reads the app once (start-up, reconnect); changes then arrive as app-updated. */
export async function loadApp(): Promise<void> {
  try {
    appInfo.doc = await transport.api.app();
  } catch (err) {
    report(err, 'Could not read the app');
  }
}

export async function runApp(): Promise<void> {
  if (appInfo.run || appInfo.starting) return;
  appInfo.starting = true;
  app.clearTopic('app-run');
  try {
    const r = await transport.api.runApp();
    if (!appInfo.run) appInfo.run = { runId: r.runId, stage: 'build', fraction: -1, message: 'Starting Gradle…', task: '', tasks: 0 };
  } catch (err) {
    report(err, 'Could not run the app');
  } finally {
    appInfo.starting = false;
  }
}

export async function bringAppBack(): Promise<void> {
  if (appInfo.launching) return;
  appInfo.launching = true;
  try {
    await transport.api.launchApp();
  } catch (err) {
    report(err, 'Could not bring the app back');
  } finally {
    appInfo.launching = false;
  }
}

/** Says how a run ended: a short success, or what failed with Gradle's lines. */
export function announceRun(f: AppRunFinished): void {
  const name = appInfo.doc?.label || f.result.applicationId;
  if (f.ok) {
    app.notify('success', `${name} is installed and in front (launched in ${f.result.launchMs} ms).`, { topic: 'app-run' });
    return;
  }
  const detail = f.lines?.length ? f.lines.join('\n') : undefined;
  app.notify('error', f.error || 'The run failed.', { topic: 'app-run', detail });
}

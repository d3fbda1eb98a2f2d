// Starts the console: token, transport, the dispatcher with every state module's
// reducers and then the side effects, and the event stream that feeds it (docs/console.md,
// "Live updates").
import { loadDisplay } from './actions/display';
import { announceRun, loadApp } from './actions/targetApp';
import { activate, resync } from './actions/sessions';
import { registerVoice } from './actions/voice';
import { Api } from './api';
import { recordError } from './diagnostics';
import { Dispatcher } from './dispatch';
import { registerAgentPhone } from './state/agentPhone.svelte';
import { app, registerAppState } from './state/app.svelte';
import { targetApp, registerTargetApp } from './state/targetapp.svelte';
import { Sync } from './sync';
import { initToken } from './token';
import { transport } from './transport';
import { previewStats } from './video/player.svelte';
import { startPaintReports } from './video/report';

/** Starts the console: token, health, bootstrap preview, then the event stream. */
export async function start(): Promise<void> {
  const token = initToken({ location: window.location, history: window.history, sessionStorage: window.sessionStorage });
  const api = new Api(token);
  const events = new Dispatcher();
  const sync = new Sync(api, app, events, { onResync: () => void resync() });
  transport.api = api;
  transport.sync = sync;

  // State first: by the time a side effect runs, the state says what the event did.
  registerAppState(events.on);
  registerTargetApp(events.on);
  registerAgentPhone(events.on);
  registerVoice(events.on);
  wireSideEffects(events, api, sync);

  window.FixThisConsoleDebug = {
    consoleEventsDiagnostics: () => JSON.parse(JSON.stringify(api.diagnostics)),
    previewStats,
  };
  startPaintReports(previewStats, (r) => api.reportPaint(r));
  await sync.start();
}

/** What the console does beyond its state when an event arrives. */
export function wireSideEffects(events: Dispatcher, api: Pick<Api, 'diagnostics'>, sync: Pick<Sync, 'refresh'>): void {
  const d = api.diagnostics;
  events.on('snapshot', () => {
    // Connect or reconnect: reread what the snapshot does not carry.
    void loadApp();
    void resync();
  });
  events.on('app-run-finished', (f) => {
    // The reducer ended the run shown only when this was its end.
    if (!targetApp.run && targetApp.finished?.runId === f.runId) announceRun(f);
  });
  events.on('display-changed', (c) => {
    // Whoever changed them (this tab, another, an agent, a deselect): read them again.
    if (c.serial === app.selectedSerial) void loadDisplay();
  });
  events.on('replay-overflow', () => {
    d.replayOverflows++;
    recordError(d, 'replay_overflow');
    void sync.refresh();
  });
  events.onOutcome((type, outcome) => {
    if (outcome === 'ignored-other-session') {
      d.ignoredOtherSession++;
      console.warn(`fixthis: dropped ${type} for another session`);
    } else if (outcome === 'active-session-deleted') {
      app.notify('warning', 'This session was deleted elsewhere. Pick another session or start a new one.');
      void activate('');
    }
  });
}

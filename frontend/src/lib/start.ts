// Starts the console: token, transport, then the event stream that keeps the state in
// step with the server (docs/console.md, "Live updates").
import { activate, resync } from './actions/sessions';
import { Api } from './api';
import { app } from './state/app.svelte';
import { Sync } from './sync';
import { initToken } from './token';
import { transport } from './transport';
import { previewStats } from './video/player.svelte';
import { startPaintReports } from './video/report';

/** Starts the console: token, health, bootstrap preview, then the event stream. */
export async function start(): Promise<void> {
  const token = initToken({ location: window.location, history: window.history, sessionStorage: window.sessionStorage });
  const api = new Api(token);
  const sync = new Sync(api, app, {
    onActiveSessionDeleted: () => {
      app.notify('warning', 'This session was deleted elsewhere. Pick another session or start a new one.');
      void activate('');
    },
    onResync: () => void resync(),
  });
  transport.api = api;
  transport.sync = sync;
  window.FixThisConsoleDebug = {
    consoleEventsDiagnostics: () => JSON.parse(JSON.stringify(api.diagnostics)),
    previewStats,
  };
  startPaintReports(previewStats, (r) => api.reportPaint(r));
  await sync.start();
}

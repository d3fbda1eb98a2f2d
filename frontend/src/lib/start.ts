// Starts the console: token, transport, the dispatcher with every feature's reducers and
// then their side effects, and the event stream that feeds it (docs/console.md, "Live
// updates").
import { Api } from './api';
import { Dispatcher } from './dispatch';
import * as agentPhone from './features/agentPhone/events';
import * as display from './features/display/events';
import type { Feature, FeatureContext } from './features/feature';
import * as session from './features/session/events';
import { resync } from './features/session/actions';
import * as targetApp from './features/targetApp/events';
import { previewStats } from './features/video/player.svelte';
import { startPaintReports } from './features/video/report';
import * as voice from './features/voice/events';
import { app } from './features/session/state.svelte';
import { Sync } from './sync';
import { initToken } from './token';
import type { Transport } from './transport';

/**
 * The features whose state or behaviour follows the event stream, in the order their
 * reducers run. Video and clips follow no event: the stream and the cuts are requests.
 */
export const FEATURES: readonly Feature[] = [session, targetApp, display, agentPhone, voice];

/** The console's connection before it starts: the transport and the dispatcher its events feed. */
export interface Connection {
  transport: Transport;
  events: Dispatcher;
}

/** Connects the console: the token, the Api and the Sync, which nothing has started yet. */
export function connect(): Connection {
  const token = initToken({ location: window.location, history: window.history, sessionStorage: window.sessionStorage });
  const api = new Api(token);
  const events = new Dispatcher();
  const transport: Transport = { api, sync: new Sync(api, app, events, { onResync: () => void resync(transport) }) };
  return { transport, events };
}

/** Starts the console on a connection: every feature wired, then the event stream. */
export async function start({ transport, events }: Connection): Promise<void> {
  const { api, sync } = transport;
  wireFeatures(events, { on: events.on, onOutcome: (l) => events.onOutcome(l), diagnostics: api.diagnostics, refresh: () => sync.refresh(), transport });

  window.FixThisConsoleDebug = {
    consoleEventsDiagnostics: () => JSON.parse(JSON.stringify(api.diagnostics)),
    previewStats,
  };
  startPaintReports(previewStats, (r) => api.reportPaint(r));
  await sync.start();
}

/** Registers every feature's reducers, then every feature's side effects. */
export function wireFeatures(events: Dispatcher, ctx: FeatureContext, features: readonly Feature[] = FEATURES): void {
  // State first: by the time a side effect runs, the state says what the event did.
  for (const f of features) f.register?.(events.on);
  for (const f of features) f.effects?.(ctx);
}

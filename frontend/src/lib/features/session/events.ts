// The session feature's events: the app's state as the snapshot, the device list, the
// preview, the sessions and the agent's presence say it (the pure reducers are in
// model.ts), and what the console does after them: reread on (re)connect, a full refresh
// when the replay ring overflowed, and a notice when the active session is deleted.
import { recordError } from '../../diagnostics';
import type { On } from '../../dispatch';
import { app, type AppState } from './state.svelte';
import type { FeatureContext } from '../feature';
import { activate, resync } from './actions';
import { applyDevices, applyPresence, applyPreview, applyPreviewStatusEvent, applySessionUpdate, applySessionsUpdate, applySnapshot } from './model';

/** Registers the reducers of the events that change the server-backed state. */
export function register(on: On, state: AppState = app): void {
  on('snapshot', (s) => {
    const outcome = applySnapshot(state, s);
    state.started = true;
    return outcome;
  });
  on('devices-updated', (d) => applyDevices(state, d));
  on('preview-ready', (p) => applyPreview(state, p));
  on('preview-status', (e) => applyPreviewStatusEvent(state, e));
  on('session-updated', (u) => {
    const outcome = applySessionUpdate(state, u);
    if (outcome === 'applied' && u.session?.sessionId && u.session.etag) state.etags.set(u.session.sessionId, u.session.etag);
    return outcome;
  });
  on('sessions-updated', (u) => applySessionsUpdate(state, u));
  on('agent', (p) => applyPresence(state, p));
}

export function effects({ on, onOutcome, diagnostics: d, refresh, transport }: FeatureContext): void {
  // Connect or reconnect: reread the active session, which the snapshot does not carry.
  on('snapshot', () => void resync(transport));
  on('replay-overflow', () => {
    d.replayOverflows++;
    recordError(d, 'replay_overflow');
    void refresh();
  });
  onOutcome((type, outcome) => {
    if (outcome === 'ignored-other-session') {
      d.ignoredOtherSession++;
      console.warn(`fixthis: dropped ${type} for another session`);
    } else if (outcome === 'active-session-deleted') {
      app.notify('warning', 'This session was deleted elsewhere. Pick another session or start a new one.');
      void activate(transport, '');
    }
  });
}

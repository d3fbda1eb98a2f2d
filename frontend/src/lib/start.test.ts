import { beforeEach, describe, expect, it, vi } from 'vitest';
import { loadDisplay } from './actions/display';
import { announceRun, loadApp } from './actions/targetApp';
import { activate, resync } from './actions/sessions';
import { newDiagnostics } from './diagnostics';
import { Dispatcher } from './dispatch';
import { wireSideEffects } from './start';
import { app, registerAppState } from './state/app.svelte';
import { targetApp, registerTargetApp } from './state/targetapp.svelte';
import { presence, runFinished, snapshotEvent } from './testing/fixtures';

vi.mock('./actions/display', () => ({ loadDisplay: vi.fn(async () => undefined) }));
vi.mock('./actions/targetApp', () => ({ announceRun: vi.fn(), loadApp: vi.fn(async () => undefined) }));
vi.mock('./actions/sessions', () => ({ activate: vi.fn(async () => undefined), resync: vi.fn(async () => undefined) }));

function wired() {
  const events = new Dispatcher();
  const api = { diagnostics: newDiagnostics() };
  const sync = { refresh: vi.fn(async () => undefined) };
  registerAppState(events.on);
  registerTargetApp(events.on);
  wireSideEffects(events, api, sync);
  return { events, d: api.diagnostics, sync };
}

describe('side effects wired after the reducers', () => {
  beforeEach(() => {
    vi.clearAllMocks();
    app.activeSessionId = 'A';
    targetApp.run = null;
    targetApp.finished = null;
  });

  it('rereads the app and the session on every snapshot', () => {
    const { events } = wired();
    events.dispatch('snapshot', snapshotEvent({}));
    events.dispatch('snapshot', snapshotEvent({}));
    expect(loadApp).toHaveBeenCalledTimes(2);
    expect(resync).toHaveBeenCalledTimes(2);
  });

  it('announces the end of the run shown, not of another run', () => {
    const { events } = wired();
    events.dispatch('app-run-progress', { runId: 'r1', stage: 'build', fraction: 0.2 });
    events.dispatch('app-run-finished', runFinished({ runId: 'r0', ok: false }));
    expect(announceRun).not.toHaveBeenCalled();
    events.dispatch('app-run-finished', runFinished({ runId: 'r1', ok: true }));
    expect(announceRun).toHaveBeenCalledTimes(1);
    expect(vi.mocked(announceRun).mock.calls[0][0].runId).toBe('r1');
  });

  it("rereads the display settings when the selected phone's change, not another's", () => {
    const { events } = wired();
    app.selectedSerial = 'S1';
    events.dispatch('display-changed', { serial: 'S2' });
    expect(loadDisplay).not.toHaveBeenCalled();
    events.dispatch('display-changed', { serial: 'S1' });
    expect(loadDisplay).toHaveBeenCalledTimes(1);
  });

  it('refreshes everything on replay overflow and counts it', () => {
    const { events, d, sync } = wired();
    events.dispatch('replay-overflow', {});
    expect(sync.refresh).toHaveBeenCalledTimes(1);
    expect(d.replayOverflows).toBe(1);
    expect(d.errors.join(' ')).toContain('replay_overflow');
  });

  it('counts events for another session and tells when the active one is deleted', () => {
    const { events, d } = wired();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    events.dispatch('agent', presence({ sessionId: 'B', presence: 'working' }));
    expect(d.ignoredOtherSession).toBe(1);
    expect(warn).toHaveBeenCalledWith('fixthis: dropped agent for another session');
    events.dispatch('sessions-updated', { sessionId: 'A', summary: null, deleted: true });
    expect(activate).toHaveBeenCalledWith('');
    expect(app.status.at(-1)?.text).toContain('deleted elsewhere');
    warn.mockRestore();
  });
});

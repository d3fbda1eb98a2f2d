import { beforeEach, describe, expect, it, vi } from 'vitest';
import { loadDisplay } from './features/display/actions';
import { announceRun, loadTargetApp } from './features/targetApp/actions';
import { activate, resync } from './features/session/actions';
import { newDiagnostics } from './diagnostics';
import { Dispatcher } from './dispatch';
import * as display from './features/display/events';
import type { Feature } from './features/feature';
import * as session from './features/session/events';
import * as targetAppFeature from './features/targetApp/events';
import { FEATURES, wireFeatures } from './start';
import type { Transport } from './transport';
import { app } from './features/session/state.svelte';
import { targetApp } from './features/targetApp/state.svelte';
import { presence, runFinished, snapshotEvent } from './testing/fixtures';

vi.mock('./features/display/actions', () => ({ loadDisplay: vi.fn(async () => undefined) }));
vi.mock('./features/targetApp/actions', () => ({ announceRun: vi.fn(), loadTargetApp: vi.fn(async () => undefined) }));
vi.mock('./features/session/actions', () => ({ activate: vi.fn(async () => undefined), resync: vi.fn(async () => undefined) }));

/** A transport no action here reaches: the actions are mocked. */
const transport = {} as Transport;

function wired() {
  const events = new Dispatcher();
  const d = newDiagnostics();
  const refresh = vi.fn(async () => undefined);
  wireFeatures(events, { on: events.on, onOutcome: (l) => events.onOutcome(l), diagnostics: d, refresh, transport }, [session, targetAppFeature, display]);
  return { events, d, sync: { refresh } };
}

describe('the features', () => {
  it('register every reducer before any side effect', () => {
    const events = new Dispatcher();
    const order: string[] = [];
    const feature = (name: string): Feature => ({
      register: (on) => void on('snapshot', () => void order.push(`${name} reducer`)),
      effects: ({ on }) => void on('snapshot', () => void order.push(`${name} effect`)),
    });
    wireFeatures(events, { on: events.on, onOutcome: () => undefined, diagnostics: newDiagnostics(), refresh: async () => undefined, transport }, [feature('a'), feature('b')]);
    events.dispatch('snapshot', snapshotEvent({}));
    expect(order).toEqual(['a reducer', 'b reducer', 'a effect', 'b effect']);
  });

  it('are each listed once', () => {
    expect(new Set(FEATURES).size).toBe(FEATURES.length);
    expect(FEATURES).toContain(session);
  });
});

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
    expect(loadTargetApp).toHaveBeenCalledTimes(2);
    expect(loadTargetApp).toHaveBeenCalledWith(transport);
    expect(resync).toHaveBeenCalledTimes(2);
    expect(resync).toHaveBeenCalledWith(transport);
  });

  it('announces the end of the run shown, not of another run', () => {
    const { events } = wired();
    events.dispatch('target-app-run-progress', { runId: 'r1', stage: 'build', fraction: 0.2 });
    events.dispatch('target-app-run-finished', runFinished({ runId: 'r0', ok: false }));
    expect(announceRun).not.toHaveBeenCalled();
    events.dispatch('target-app-run-finished', runFinished({ runId: 'r1', ok: true }));
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
    expect(loadDisplay).toHaveBeenCalledWith(transport);
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
    expect(activate).toHaveBeenCalledWith(transport, '');
    expect(app.status.at(-1)?.text).toContain('deleted elsewhere');
    warn.mockRestore();
  });
});

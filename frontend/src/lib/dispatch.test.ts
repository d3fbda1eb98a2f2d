import { describe, expect, it } from 'vitest';
import { Dispatcher, type Outcome } from './dispatch';
import { register as registerAgentPhone } from './features/agentPhone/events';
import { AgentPhoneState } from './features/agentPhone/state.svelte';
import { register as registerAppState } from './features/session/events';
import { register as registerTargetApp } from './features/targetApp/events';
import { TargetAppState } from './features/targetApp/state.svelte';
import { AppState } from './features/session/state.svelte';
import { presence, runFinished, session, snapshotEvent } from './testing/fixtures';
import type { EventType } from './wire.gen';

const frame = { previewId: 'p1', serial: 's', width: 10, height: 20, url: '/u1', capturedAt: '' };

describe('Dispatcher', () => {
  it('runs the handlers of a type in registration order with its payload and id', () => {
    const d = new Dispatcher();
    const seen: string[] = [];
    d.on('preview-ready', (p, id) => void seen.push(`first ${p.previewId} ${id}`));
    const off = d.on('preview-ready', (p) => void seen.push(`second ${p.url}`));
    d.on('agent', () => void seen.push('agent'));
    d.dispatch('preview-ready', frame, '7');
    off();
    d.dispatch('preview-ready', frame, '8');
    expect(seen).toEqual(['first p1 7', 'second /u1', 'first p1 8']);
  });

  it('tells outcome listeners what a reducer did unless it simply applied it', () => {
    const d = new Dispatcher();
    const told: [EventType, Outcome][] = [];
    d.onOutcome((type, outcome) => void told.push([type, outcome]));
    d.on('agent', () => 'applied');
    d.on('agent', () => 'ignored-other-session');
    d.on('sessions-updated', () => 'noop');
    d.on('sessions-updated', () => {});
    d.dispatch('agent', presence({ sessionId: 'B', presence: 'away' }));
    d.dispatch('sessions-updated', { sessionId: '', summary: null });
    expect(told).toEqual([['agent', 'ignored-other-session']]);
  });

  it('types each handler by its event: a wrong payload does not compile', () => {
    const d = new Dispatcher();
    // @ts-expect-error preview-ready carries a PreviewFrame, which has no sessions
    d.on('preview-ready', (p) => void p.sessions);
    // @ts-expect-error the payload must be the event's
    d.dispatch('agent-control', frame);
    // @ts-expect-error no such event
    d.on('voice-typo', () => {});
    expect(true).toBe(true);
  });
});

describe('the state modules on one dispatcher', () => {
  function wired() {
    const d = new Dispatcher();
    const app = new AppState();
    const info = new TargetAppState();
    const phone = new AgentPhoneState();
    registerAppState(d.on, app);
    registerTargetApp(d.on, info);
    registerAgentPhone(d.on, phone, () => app.selectedSerial);
    const told: [EventType, Outcome][] = [];
    d.onOutcome((type, outcome) => void told.push([type, outcome]));
    return { d, app, info, phone, told };
  }

  it('keeps each module in step with its events', () => {
    const { d, app, info, phone, told } = wired();
    d.dispatch('snapshot', snapshotEvent({ version: '9', selectedSerial: 'sim', sessions: [session({ sessionId: 'A' })] }));
    expect(app.started).toBe(true);
    expect(app.version).toBe('9');

    app.activeSessionId = 'A';
    d.dispatch('session-updated', { sessionId: 'A', session: session({ sessionId: 'A', title: 'Renamed', etag: '"3"' }) });
    expect(app.session?.title).toBe('Renamed');
    expect(app.etags.get('A')).toBe('"3"');
    d.dispatch('session-updated', { sessionId: 'B', session: session({ sessionId: 'B', etag: '"4"' }) });
    expect(app.etags.has('B')).toBe(false);

    d.dispatch('agent-control', { serial: 'other', allowed: true, decided: true, pending: false });
    expect(phone.control).toBeNull();
    d.dispatch('agent-control', { serial: 'sim', allowed: true, decided: true, pending: false });
    expect(phone.control?.allowed).toBe(true);
    d.dispatch('device-action', { seq: 1, serial: 'sim', action: 'tap', detail: '10,20', outcome: 'ok', createdAt: '' });
    expect(phone.actions.map((a) => a.action)).toEqual(['tap']);

    d.dispatch('target-app-run-progress', { runId: 'r1', stage: 'install', fraction: 0.5 });
    expect(info.run?.stage).toBe('install');
    d.dispatch('target-app-run-finished', runFinished({ runId: 'r1', ok: true }));
    expect(info.run).toBeNull();
    expect(info.finished?.runId).toBe('r1');

    d.dispatch('sessions-updated', { sessionId: 'A', summary: null, deleted: true });
    expect(told).toEqual([
      ['session-updated', 'ignored-other-session'],
      ['sessions-updated', 'active-session-deleted'],
    ]);
  });
});

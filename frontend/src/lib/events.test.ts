import { describe, expect, it } from 'vitest';
import { applyEvent, applyPreview, type SyncModel } from './events';
import type { Session } from './types';
import { session as sessionFx } from './testing/fixtures';

function model(): SyncModel {
  return { version: '', mode: '', devices: [], selectedSerial: '', adbError: '', sessions: [], activeSessionId: 'A', session: null, preview: null, agent: null };
}

const session = (id: string, updatedAt = '2025-01-01T00:00:00Z'): Session =>
  sessionFx({
  sessionId: id,
  title: id,
  status: 'open',
  itemCount: 0,
  updatedAt,
  items: [],
  screens: [],
});

describe('applyEvent', () => {
  it('applies the snapshot whatever the active session', () => {
    const m = model();
    expect(applyEvent(m, 'snapshot', { version: '1.2.3', devices: [{ serial: 'x', state: 'device', model: 'Pixel' }], selectedSerial: 'x', sessions: [session('B')], preview: null, agent: { sessionId: 'B', presence: 'away' } })).toBe('applied');
    expect(m.version).toBe('1.2.3');
    expect(m.sessions.map((s) => s.sessionId)).toEqual(['B']);
    expect(m.agent?.presence).toBe('away');
  });

  it('applies session-updated only for the active session', () => {
    const m = model();
    expect(applyEvent(m, 'session-updated', { sessionId: 'B', session: session('B') })).toBe('ignored-other-session');
    expect(m.session).toBeNull();
    expect(applyEvent(m, 'session-updated', { sessionId: 'A', session: session('A') })).toBe('applied');
    expect(m.session?.sessionId).toBe('A');
    expect(m.sessions.map((s) => s.sessionId)).toEqual(['A']);
  });

  it('upserts summaries newest first and reports deletion of the active one', () => {
    const m = model();
    applyEvent(m, 'sessions-updated', { sessionId: 'A', summary: session('A', '2025-01-01T00:00:00Z') });
    applyEvent(m, 'sessions-updated', { sessionId: 'B', summary: session('B', '2025-02-01T00:00:00Z') });
    expect(m.sessions.map((s) => s.sessionId)).toEqual(['B', 'A']);
    expect(applyEvent(m, 'sessions-updated', { sessionId: 'B', summary: null, deleted: true })).toBe('applied');
    expect(applyEvent(m, 'sessions-updated', { sessionId: 'A', deleted: true })).toBe('active-session-deleted');
    expect(m.sessions).toEqual([]);
  });

  it('fences preview-ready by session and marks new frames live', () => {
    const m = model();
    expect(applyEvent(m, 'preview-ready', { sessionId: 'B', previewId: 'p1', url: '/u1', width: 10, height: 20 })).toBe('ignored-other-session');
    expect(m.preview).toBeNull();
    applyEvent(m, 'preview-status', { serial: 's', status: { state: 'blocked', reason: 'screen_off' } });
    expect(m.preview?.status?.state).toBe('blocked');
    applyEvent(m, 'preview-ready', { previewId: 'p2', url: '/u2', width: 10, height: 20 });
    expect(m.preview).toMatchObject({ previewId: 'p2', url: '/u2', previewAvailable: true, status: { state: 'live' } });
  });

  it('routes fallback polls through the same fence', () => {
    const m = model();
    expect(applyPreview(m, { sessionId: 'other', previewId: 'x', url: '/x' })).toBe('ignored-other-session');
    expect(applyPreview(m, { previewAvailable: false, previewId: '', url: '', width: 0, height: 0, serial: '', status: { state: 'no-device' } })).toBe('applied');
    expect(m.preview?.previewAvailable).toBe(false);
  });

  it('asks for a full refresh on replay overflow', () => {
    expect(applyEvent(model(), 'replay-overflow', {})).toBe('full-refresh');
  });

  it('ignores presence of other sessions', () => {
    const m = model();
    expect(applyEvent(m, 'agent', { sessionId: 'B', presence: 'listening' })).toBe('ignored-other-session');
    expect(applyEvent(m, 'agent', { sessionId: 'A', presence: 'listening' })).toBe('applied');
    expect(m.agent?.presence).toBe('listening');
  });
});

describe('adb server state', () => {
  it('records an outage from devices-updated and clears it when the server is back', () => {
    const m = model();
    applyEvent(m, 'devices-updated', { devices: [], selectedSerial: '', adbServerUp: false, adbServerError: 'track devices: EOF' });
    expect(m.adbError).toBe('track devices: EOF');
    applyEvent(m, 'devices-updated', { devices: [], selectedSerial: '', adbServerUp: true });
    expect(m.adbError).toBe('');
  });

  it('keeps the device notices and the offered device of the newest list only', () => {
    const m = model();
    applyEvent(m, 'devices-updated', {
      devices: [], selectedSerial: '10.0.0.5:5555', adbServerUp: true,
      notices: ['Pixel 7a (10.0.0.5:5555) is gone (offline); Pixel 8 (emulator-5554) is online.'], offerSerial: 'emulator-5554',
    });
    expect([m.deviceNotices, m.offerSerial]).toEqual([['Pixel 7a (10.0.0.5:5555) is gone (offline); Pixel 8 (emulator-5554) is online.'], 'emulator-5554']);
    applyEvent(m, 'devices-updated', { devices: [], selectedSerial: 'emulator-5554', adbServerUp: true });
    expect([m.deviceNotices, m.offerSerial]).toEqual([[], '']);
  });
});

describe('agent presence', () => {
  it('counts applied agent events so a late fetch cannot overwrite them', () => {
    const m = model();
    applyEvent(m, 'agent', { sessionId: 'A', presence: 'listening' });
    expect(m.agent?.presence).toBe('listening');
    expect(m.agentSeq).toBe(1);
    expect(applyEvent(m, 'agent', { sessionId: 'B', presence: 'working' })).toBe('ignored-other-session');
    expect(m.agentSeq).toBe(1);
  });
});

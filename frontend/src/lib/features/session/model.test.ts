import { describe, expect, it } from 'vitest';
import {
  applyDevices,
  applyPresence,
  applyPreview,
  applyPreviewStatusEvent,
  applySessionUpdate,
  applySessionsUpdate,
  applySnapshot,
  type SyncModel,
} from './model';
import type { Session } from '../../types';
import { device, item, presence, session as sessionFx, snapshotEvent } from '../../testing/fixtures';

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

const frame = (previewId: string, url: string) => ({ previewId, url, serial: 's', width: 10, height: 20, capturedAt: '' });

describe('event reducers', () => {
  it('applies the snapshot whatever the active session', () => {
    const m = model();
    const snap = snapshotEvent({ version: '1.2.3', devices: [device({ serial: 'x', model: 'Pixel' })], selectedSerial: 'x', sessions: [session('B')], agent: presence({ sessionId: 'B', presence: 'away' }) });
    expect(applySnapshot(m, snap)).toBe('applied');
    expect(m.version).toBe('1.2.3');
    expect(m.sessions.map((s) => s.sessionId)).toEqual(['B']);
    expect(m.agent?.presence).toBe('away');
    expect(m.preview?.status.state).toBe('no-device');
  });

  it('applies session-updated only for the active session', () => {
    const m = model();
    expect(applySessionUpdate(m, { sessionId: 'B', session: session('B') })).toBe('ignored-other-session');
    expect(m.session).toBeNull();
    expect(applySessionUpdate(m, { sessionId: 'A', session: session('A') })).toBe('applied');
    expect(m.session?.sessionId).toBe('A');
    expect(m.sessions.map((s) => s.sessionId)).toEqual(['A']);
  });

  it('never rolls an item back to an older state than the one it holds', () => {
    const m = model();
    const at = (updatedAt: string, userAnswer: string) => item({ itemId: 'i1', sequenceNumber: 1, updatedAt, userAnswer });
    const other = (updatedAt: string, comment: string) => item({ itemId: 'i2', sequenceNumber: 2, updatedAt, comment });
    // The answer's reply put the item at 10:00:05; an update published at 10:00:04 arrives after it.
    m.session = { ...session('A'), items: [at('2025-01-01T10:00:05.000Z', 'Twice as tall'), other('2025-01-01T10:00:00.000Z', 'old')] };
    applySessionUpdate(m, { sessionId: 'A', session: { ...session('A'), items: [at('2025-01-01T10:00:04.000Z', ''), other('2025-01-01T10:00:04.000Z', 'new')] } });
    expect(m.session?.items.map((i) => [i.userAnswer, i.comment])).toEqual([['Twice as tall', ''], ['', 'new']]);
    // A later update wins, and one that drops an item drops it.
    applySessionUpdate(m, { sessionId: 'A', session: { ...session('A'), items: [at('2025-01-01T10:00:06.000Z', 'Twice as tall, please')] } });
    expect(m.session?.items.map((i) => i.userAnswer)).toEqual(['Twice as tall, please']);
  });

  it('upserts summaries newest first and reports deletion of the active one', () => {
    const m = model();
    applySessionsUpdate(m, { sessionId: 'A', summary: session('A', '2025-01-01T00:00:00Z') });
    applySessionsUpdate(m, { sessionId: 'B', summary: session('B', '2025-02-01T00:00:00Z') });
    expect(m.sessions.map((s) => s.sessionId)).toEqual(['B', 'A']);
    expect(applySessionsUpdate(m, { sessionId: 'B', summary: null, deleted: true })).toBe('applied');
    expect(applySessionsUpdate(m, { sessionId: 'A', summary: null, deleted: true })).toBe('active-session-deleted');
    expect(m.sessions).toEqual([]);
    expect(applySessionsUpdate(m, { sessionId: '', summary: null })).toBe('noop');
  });

  it('marks new frames live after a blocked status', () => {
    const m = model();
    applyPreviewStatusEvent(m, { serial: 's', status: { state: 'blocked', reason: 'screen_off' } });
    expect(m.preview?.status?.state).toBe('blocked');
    applyPreview(m, frame('p2', '/u2'));
    expect(m.preview).toMatchObject({ previewId: 'p2', url: '/u2', previewAvailable: true, status: { state: 'live' } });
  });

  it('fences fallback polls by session', () => {
    const m = model();
    expect(applyPreview(m, { sessionId: 'other', previewId: 'x', url: '/x' })).toBe('ignored-other-session');
    expect(m.preview).toBeNull();
    expect(applyPreview(m, { previewAvailable: false, previewId: '', url: '', width: 0, height: 0, serial: '', status: { state: 'no-device' } })).toBe('applied');
    expect(m.preview?.previewAvailable).toBe(false);
  });

  it('ignores presence of other sessions', () => {
    const m = model();
    expect(applyPresence(m, presence({ sessionId: 'B', presence: 'listening' }))).toBe('ignored-other-session');
    expect(applyPresence(m, presence({ sessionId: 'A', presence: 'listening' }))).toBe('applied');
    expect(m.agent?.presence).toBe('listening');
  });
});

describe('adb server state', () => {
  it('records an outage from devices-updated and clears it when the server is back', () => {
    const m = model();
    applyDevices(m, { devices: [], selectedSerial: '', adbServerUp: false, adbServerError: 'track devices: EOF' });
    expect(m.adbError).toBe('track devices: EOF');
    applyDevices(m, { devices: [], selectedSerial: '', adbServerUp: true });
    expect(m.adbError).toBe('');
  });

  it('keeps the device notices and the offered device of the newest list only', () => {
    const m = model();
    applyDevices(m, {
      devices: [], selectedSerial: '10.0.0.5:5555', adbServerUp: true,
      notices: ['Pixel 7a (10.0.0.5:5555) is gone (offline); Pixel 8 (emulator-5554) is online.'], offerSerial: 'emulator-5554',
    });
    expect([m.deviceNotices, m.offerSerial]).toEqual([['Pixel 7a (10.0.0.5:5555) is gone (offline); Pixel 8 (emulator-5554) is online.'], 'emulator-5554']);
    applyDevices(m, { devices: [], selectedSerial: 'emulator-5554', adbServerUp: true });
    expect([m.deviceNotices, m.offerSerial]).toEqual([[], '']);
  });
});

describe('agent presence', () => {
  it('counts applied agent events so a late fetch cannot overwrite them', () => {
    const m = model();
    applyPresence(m, presence({ sessionId: 'A', presence: 'listening' }));
    expect(m.agent?.presence).toBe('listening');
    expect(m.agentSeq).toBe(1);
    expect(applyPresence(m, presence({ sessionId: 'B', presence: 'working' }))).toBe('ignored-other-session');
    expect(m.agentSeq).toBe(1);
  });
});

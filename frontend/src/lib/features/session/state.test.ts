import { describe, expect, it } from 'vitest';
import type { Item, Session } from '../../types';
import { AppState } from './state.svelte';
import { session as sessionFx } from '../../testing/fixtures';

const item = (itemId: string, comment = 'c') => ({ itemId, comment, phase: 'draft' }) as Item;
const session = (sessionId: string, items: Item[] = [], updatedAt = '2025-01-02T00:00:00Z'): Session =>
  sessionFx({
  sessionId,
  title: sessionId,
  status: 'open',
  itemCount: items.length,
  updatedAt,
  items,
  screens: [],
});

describe('AppState', () => {
  it('takes a session answer only for the active session, but always its ETag', () => {
    const app = new AppState();
    app.activeSessionId = 'A';
    app.applySession('B', session('B'), '"7"');
    expect(app.session).toBeNull();
    expect(app.etags.get('B')).toBe('"7"');
    app.applySession('A', session('A', [item('i1')]));
    expect(app.session?.sessionId).toBe('A');
    expect(app.sessions.map((s) => [s.sessionId, s.itemCount])).toEqual([['A', 1]]);
  });

  it('replaces and removes items of the active session only', () => {
    const app = new AppState();
    app.activeSessionId = 'A';
    app.session = session('A', [item('i1'), item('i2')]);
    app.replaceItem('B', item('i1', 'other session'));
    app.replaceItem('A', item('i2', 'edited'));
    expect(app.session.items.map((i) => i.comment)).toEqual(['c', 'edited']);
    app.removeItem('B', 'i1');
    app.removeItem('A', 'i1');
    expect(app.session?.items.map((i) => i.itemId)).toEqual(['i2']);
  });

  it('keeps the session list newest first', () => {
    const app = new AppState();
    app.upsertSession(session('old', [], '2025-01-01T00:00:00Z'));
    app.upsertSession(session('new', [], '2025-01-03T00:00:00Z'));
    app.upsertSession(session('old', [], '2025-01-04T00:00:00Z'));
    expect(app.sessions.map((s) => s.sessionId)).toEqual(['old', 'new']);
    app.removeSession('old');
    expect(app.sessions.map((s) => s.sessionId)).toEqual(['new']);
  });

  it('sets the policy on the active session only', () => {
    const app = new AppState();
    app.activeSessionId = 'A';
    app.session = session('A');
    app.setPolicy('B', 'off');
    expect(app.session.runtimeEvidencePolicy).toBe('auto'); // unchanged: B is not active
    app.setPolicy('A', 'manual');
    expect(app.session?.runtimeEvidencePolicy).toBe('manual');
    app.setDevices(undefined, undefined);
    expect([app.devices, app.selectedSerial]).toEqual([[], '']);
  });
});

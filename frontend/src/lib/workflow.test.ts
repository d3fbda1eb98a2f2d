import { describe, expect, it } from 'vitest';
import { frameStatus } from './frameStatus';
import { workflowSteps } from './workflow';
import { UndoStack } from './undo';
import { splitTokenFromHash, withToken, initToken } from './token';

describe('workflowSteps', () => {
  const states = (i: Parameters<typeof workflowSteps>[0]) => workflowSteps(i).map((s) => `${s.id}:${s.state}`);
  it('starts at connect', () => {
    expect(states({ deviceReady: false, previewVisible: false, annotations: 0, handedOff: false })).toEqual([
      'connect:active',
      'preview:upcoming',
      'annotate:upcoming',
      'handoff:upcoming',
    ]);
  });
  it('moves to annotate once the preview shows', () => {
    expect(states({ deviceReady: true, previewVisible: true, annotations: 0, handedOff: false })[2]).toBe('annotate:active');
  });
  it('keeps later completed steps complete when an earlier one regresses', () => {
    expect(states({ deviceReady: false, previewVisible: false, annotations: 2, handedOff: true })).toEqual([
      'connect:active',
      'preview:upcoming',
      'annotate:complete',
      'handoff:complete',
    ]);
  });
});

describe('frameStatus precedence', () => {
  it.each([
    [{ hasImage: true, stageMode: 'live', previewState: 'live', connectionDown: false }, 'Live preview'],
    [{ hasImage: true, stageMode: 'frozen', previewState: 'frozen', connectionDown: false }, 'Frozen for annotation'],
    [{ hasImage: true, stageMode: 'frozen', previewState: 'blocked', connectionDown: false }, 'Interaction blocked'],
    [{ hasImage: true, stageMode: 'live', previewState: 'blocked', connectionDown: true }, 'Interaction blocked'],
    [{ hasImage: true, stageMode: 'live', previewState: 'live', connectionDown: true }, 'Stale frame'],
    [{ hasImage: true, stageMode: 'live', previewState: 'stale', connectionDown: false }, 'Stale frame'],
    [{ hasImage: false, stageMode: 'live', previewState: 'live', connectionDown: false }, 'No screenshot'],
    [{ hasImage: true, stageMode: 'saved', previewState: 'blocked', connectionDown: true }, 'Saved screen'],
  ] as const)('%o → %s', (input, label) => {
    expect(frameStatus(input).label).toBe(label);
  });
});

describe('UndoStack', () => {
  it('undoes and redoes snapshots; a new change clears redo', () => {
    const u = new UndoStack<number[]>();
    u.record([]);
    let cur = [1];
    cur = u.stepBack(cur)!;
    expect(cur).toEqual([]);
    cur = u.stepForward(cur)!;
    expect(cur).toEqual([1]);
    u.record(cur);
    expect(u.canRedo).toBe(false);
    expect(u.stepForward([9])).toBeNull();
  });
  it('keeps at most the limit', () => {
    const u = new UndoStack<number>([], [], 3);
    for (let i = 0; i < 10; i++) u.record(i);
    expect(u.undo).toEqual([7, 8, 9]);
  });
});

describe('token', () => {
  it('splits the token out of the fragment', () => {
    expect(splitTokenFromHash('#token=abc&x=1')).toEqual({ token: 'abc', rest: '#x=1' });
    expect(splitTokenFromHash('')).toEqual({ token: null, rest: '' });
  });
  it('adds the query token for EventSource and images', () => {
    expect(withToken('/api/events', 't k')).toBe('/api/events?consoleToken=t%20k');
    expect(withToken('api/x?a=1', 't')).toBe('/api/x?a=1&consoleToken=t');
    expect(withToken('/api/x', null)).toBe('/api/x');
  });
  it('keeps the token for reloads and strips it from the URL', () => {
    const store = new Map<string, string>();
    let replaced = '';
    const env = {
      location: { hash: '#token=secret', pathname: '/', search: '' },
      history: { replaceState: (_d: unknown, _u: string, url?: string) => void (replaced = url ?? '') },
      sessionStorage: { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) },
    };
    expect(initToken(env)).toBe('secret');
    expect(replaced).toBe('/');
    env.location.hash = '';
    expect(initToken(env)).toBe('secret');
  });
});

import { beforeEach, describe, expect, it } from 'vitest';
import { node, screen as frozenScreen } from './testing/fixtures';
import {
  type DraftWorkspace,
  type KeyValueStorage,
  clearSessionWorkspaces,
  createWorkspace,
  indexKey,
  listWorkspaces,
  loadWorkspace,
  localItemCount,
  recoveryFor,
  removeWorkspace,
  saveWorkspace,
  workspaceKey,
} from './workspace';

class MapStorage implements KeyValueStorage {
  m = new Map<string, string>();
  quota = Infinity;
  getItem(k: string) {
    return this.m.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    if (v.length > this.quota) throw new DOMException('full', 'QuotaExceededError');
    this.m.set(k, v);
  }
  removeItem(k: string) {
    this.m.delete(k);
  }
  key(i: number) {
    return [...this.m.keys()][i] ?? null;
  }
  get length() {
    return this.m.size;
  }
}

const screen = frozenScreen({ fingerprint: 'fp1', width: 1080, height: 2400, package: 'com.app', activity: '.Main' });

function ws(sessionId = 'S1'): DraftWorkspace {
  const w = createWorkspace({ sessionId, serial: 'emu', frozenId: 'p1', frozenAt: '2025-01-01T00:00:00Z' }, screen, '/api/preview/p1/image', [
    node({ uid: 'n1', parentUid: 'r', bounds: { left: 0, top: 0, right: 10, bottom: 10 }, text: 'Hi' }),
  ]);
  w.items = [
    { draftItemId: 'd1', workspaceId: w.workspaceId, target: { type: 'screen' }, severity: 'high', comment: 'Make it blue', createdAt: '2025-01-01T00:00:00Z' },
    { draftItemId: 'd2', workspaceId: w.workspaceId, target: { type: 'area', bounds: { left: 1, top: 2, right: 3, bottom: 4 } }, severity: 'med', comment: '', createdAt: '2025-01-01T00:00:01Z' },
  ];
  w.updatedAt = '2025-01-01T00:00:02Z';
  return w;
}

describe('schema-v2 workspace storage', () => {
  let s: MapStorage;
  beforeEach(() => {
    s = new MapStorage();
  });

  it('writes the envelope and the per-session index under the documented keys', () => {
    const w = ws();
    expect(saveWorkspace(s, w)).toBe(true);
    const env = JSON.parse(s.getItem(`fixthis.workspace.S1.${w.workspaceId}`)!);
    expect(env).toMatchObject({ schema: 2, workspaceId: w.workspaceId, revision: 0, lifecycle: 'active', context: { sessionId: 'S1', frozenId: 'p1' }, frozenScreen: screen, screenshotUrl: '/api/preview/p1/image' });
    expect(env.items).toHaveLength(2);
    expect(env.history).toEqual({ undo: [], redo: [] });
    const idx = JSON.parse(s.getItem('fixthis.workspace.index.S1')!);
    expect(idx).toEqual({ schema: 2, workspaces: [{ workspaceId: w.workspaceId, updatedAt: w.updatedAt, itemCount: 2 }] });
    expect(localItemCount(s, 'S1')).toBe(2);
  });

  it('round-trips and lists newest first', () => {
    const a = ws();
    const b = ws();
    b.updatedAt = '2025-03-01T00:00:00Z';
    saveWorkspace(s, a);
    saveWorkspace(s, b);
    expect(loadWorkspace(s, 'S1', a.workspaceId)?.items.map((i) => i.draftItemId)).toEqual(['d1', 'd2']);
    expect(listWorkspaces(s, 'S1').map((w) => w.workspaceId)).toEqual([b.workspaceId, a.workspaceId]);
  });

  it('ignores other schemas, legacy keys, keyless items and foreign sessions', () => {
    const w = ws();
    s.setItem('fixthis.pending.S1', JSON.stringify({ items: [{ comment: 'old' }] }));
    s.setItem(workspaceKey('S1', 'old'), JSON.stringify({ schema: 1, workspaceId: 'old', context: { sessionId: 'S1' } }));
    s.setItem(indexKey('S1'), JSON.stringify({ schema: 2, workspaces: [{ workspaceId: 'old' }, { workspaceId: w.workspaceId }] }));
    const raw = { ...w, items: [...w.items, { comment: 'no key', target: { type: 'screen' } }] };
    s.setItem(workspaceKey('S1', w.workspaceId), JSON.stringify(raw));
    const list = listWorkspaces(s, 'S1');
    expect(list).toHaveLength(1);
    expect(list[0].items).toHaveLength(2);
    // the dangling v1 entry was pruned from the index
    expect(JSON.parse(s.getItem(indexKey('S1'))!).workspaces).toHaveLength(1);
    expect(loadWorkspace(s, 'S2', w.workspaceId)).toBeNull();
  });

  it('keeps the frozen frame of a workspace stored when its id was called previewId', () => {
    const w = ws();
    const { frozenId, ...context } = w.context;
    s.setItem(workspaceKey('S1', w.workspaceId), JSON.stringify({ ...w, context: { ...context, previewId: frozenId } }));
    const back = loadWorkspace(s, 'S1', w.workspaceId);
    expect(back?.context).toEqual(w.context);
  });

  it('drops the UI tree, then history, when the quota is exceeded', () => {
    const w = ws();
    w.nodes = Array.from({ length: 200 }, (_, i) => node({ uid: `n${i}`, parentUid: 'r', bounds: { left: 0, top: 0, right: 1, bottom: 1 }, text: 'x'.repeat(50) }));
    s.quota = 3000;
    expect(saveWorkspace(s, w)).toBe(true);
    const back = loadWorkspace(s, 'S1', w.workspaceId)!;
    expect(back.nodes).toBeUndefined();
    expect(back.items).toHaveLength(2);
  });

  it('removes one workspace, or every workspace of a session', () => {
    const a = ws();
    const b = ws();
    saveWorkspace(s, a);
    saveWorkspace(s, b);
    saveWorkspace(s, ws('S2'));
    removeWorkspace(s, 'S1', a.workspaceId);
    expect(listWorkspaces(s, 'S1').map((w) => w.workspaceId)).toEqual([b.workspaceId]);
    s.setItem(workspaceKey('S1', 'orphan'), '{}');
    clearSessionWorkspaces(s, 'S1');
    expect([...s.m.keys()].filter((k) => k.includes('.S1'))).toEqual([]);
    expect(listWorkspaces(s, 'S2')).toHaveLength(1);
  });
});

describe('recoveryFor', () => {
  it('offers only items the server does not hold yet', () => {
    const w = ws();
    const r = recoveryFor(w, [{ clientWorkspaceId: w.workspaceId, clientDraftItemId: 'd1' }, { clientWorkspaceId: 'other', clientDraftItemId: 'd2' }]);
    expect(r?.items.map((i) => i.draftItemId)).toEqual(['d2']);
    expect(r?.canRecover).toBe(true);
  });
  it('returns null when everything was saved', () => {
    const w = ws();
    expect(recoveryFor(w, w.items.map((i) => ({ clientWorkspaceId: w.workspaceId, clientDraftItemId: i.draftItemId })))).toBeNull();
  });
  it('needs the frozen context to Recover', () => {
    const w = ws();
    w.screenshotUrl = '';
    expect(recoveryFor(w, [])?.canRecover).toBe(false);
  });
});

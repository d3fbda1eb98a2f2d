import { beforeEach, describe, expect, it } from 'vitest';
import { app } from '../features/session/state.svelte';
import { draft } from '../state/draft.svelte';
import { ui } from '../state/ui.svelte';
import type { Item } from '../types';
import { listWorkspaces } from '../workspace';
import { checkRecovery, discardRecovery, recoverDraft } from './recovery';
import { screen, session } from '../testing/fixtures';

/** Leaves a workspace with two pending annotations in storage, as a reload would find it. */
function leftBehind(): { workspaceId: string; draftIds: string[] } {
  draft.begin({ frozenId: 'p1', imageUrl: '/img', screen: screen({ fingerprint: 'fp', width: 100, height: 200 }), nodes: [] }, { sessionId: 'S', serial: 'emu' });
  draft.add({ type: 'screen' }, 'one', 'med', 'Whole screen');
  draft.add({ type: 'screen' }, 'two', 'med', 'Whole screen');
  const out = { workspaceId: draft.workspace!.workspaceId, draftIds: draft.items.map((i) => i.draftItemId) };
  draft.close(false);
  return out;
}

beforeEach(() => {
  for (const ws of listWorkspaces(draft.storage, 'S')) draft.storage.removeItem(`fixthis.workspace.S.${ws.workspaceId}`);
  draft.storage.removeItem('fixthis.workspace.index.S');
  app.activeSessionId = 'S';
  app.session = session({ sessionId: 'S' });
  ui.recovery = null;
  ui.backToLive();
});

describe('recovery', () => {
  it('offers only what the server does not hold yet, and recovers it on its frame', () => {
    const { workspaceId, draftIds } = leftBehind();
    app.session!.items = [{ itemId: 'i1', clientWorkspaceId: workspaceId, clientDraftItemId: draftIds[0] } as Item];
    checkRecovery('S', true);
    expect(ui.recovery?.items.map((i) => i.comment)).toEqual(['two']);
    expect(ui.recovery?.canRecover).toBe(true);
    expect(draft.workspace).toBeNull(); // offered, not restored
    recoverDraft();
    expect(draft.workspace?.workspaceId).toBe(workspaceId);
    expect(draft.items.map((i) => i.comment)).toEqual(['two']);
    expect([ui.stageMode, ui.tool, ui.recovery]).toEqual(['frozen', 'annotate', null]);
    draft.close(true);
  });

  it('forgets a workspace whose items are all saved, and one the user discards', () => {
    const first = leftBehind();
    app.session!.items = first.draftIds.map((d, i) => ({ itemId: `i${i}`, clientWorkspaceId: first.workspaceId, clientDraftItemId: d }) as Item);
    checkRecovery('S', true);
    expect(ui.recovery).toBeNull();
    expect(listWorkspaces(draft.storage, 'S')).toEqual([]);

    leftBehind();
    app.session!.items = [];
    checkRecovery('S', true);
    expect(ui.recovery).not.toBeNull();
    discardRecovery();
    expect(ui.recovery).toBeNull();
    expect(listWorkspaces(draft.storage, 'S')).toEqual([]);
  });

  it('does not recover into another session', () => {
    leftBehind();
    checkRecovery('S', true);
    app.activeSessionId = 'T';
    recoverDraft();
    expect(draft.workspace).toBeNull();
    expect(ui.recovery).not.toBeNull();
  });
});

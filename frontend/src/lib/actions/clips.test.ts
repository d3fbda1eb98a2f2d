import { beforeEach, describe, expect, it } from 'vitest';
import { draft } from '../state/draft.svelte';
import { ui } from '../state/ui.svelte';
import { addPending, pickScreen } from './annotate';
import { attachClip } from './clips';
import { screen } from '../testing/fixtures';

const clip = (id: string) => ({ clipId: id, durationMs: 5000, videoUrl: `/api/clips/${id}/video?sessionId=S` });

beforeEach(() => {
  draft.close(true);
  ui.clearSelection();
  draft.begin({ frozenId: 'p1', imageUrl: '/img', screen: screen({ fingerprint: 'fp', width: 1000, height: 2000 }), nodes: [] }, { sessionId: 'S', serial: 'emu' });
  ui.enterFrozen();
});

describe('clips', () => {
  it('attach to the pending annotation and travel with it into the draft', async () => {
    pickScreen();
    await attachClip(clip('c1'));
    expect(ui.pendingClip?.clipId).toBe('c1');
    ui.pendingComment = 'the dialog flashes white';
    addPending();
    expect(draft.items[0].clip?.clipId).toBe('c1');
    expect(ui.pendingClip).toBeNull();
  });

  it('replace the clip of the draft being edited', async () => {
    pickScreen();
    ui.pendingComment = 'janky';
    addPending();
    ui.editingDraftId = draft.items[0].draftItemId;
    await attachClip(clip('c2'));
    expect(draft.items[0].clip?.clipId).toBe('c2');
  });

  it('become a note on the whole screen when nothing is pending', async () => {
    await attachClip(clip('c3'));
    expect(ui.pending?.target).toEqual({ type: 'screen' });
    expect(ui.pendingClip?.clipId).toBe('c3');
  });

  it('are dropped with a cancelled annotation', async () => {
    pickScreen();
    await attachClip(clip('c4'));
    ui.cancelPending();
    expect(ui.pendingClip).toBeNull();
  });
});

import { beforeEach, describe, expect, it, vi } from 'vitest';
import { app } from '../features/session/state.svelte';
import { draft } from '../state/draft.svelte';
import { ui } from '../state/ui.svelte';
import type { UiNode } from '../types';
import { addPending, annotate, pickArea, pickPoint, pickScreen, redo, removeDraft, rescope, selectMode, undo } from './annotate';
import { screen } from '../testing/fixtures';
import type { Transport } from '../transport';

/** No voice session is on, so no pick reaches the server; selectMode has nothing to resume. */
const transport = {} as Transport;

const node = (uid: string, parentUid: string, bounds: UiNode['bounds'], text = ''): UiNode =>
  ({ uid, parentUid, indexPath: uid, class: 'android.widget.TextView', text, bounds, clickable: true }) as unknown as UiNode;

beforeEach(() => {
  draft.close(true);
  ui.clearSelection();
  draft.begin(
    {
      frozenId: 'p1',
      imageUrl: '/img',
      screen: screen({ fingerprint: 'fp', width: 1000, height: 2000 }),
      nodes: [node('n0', '', { left: 0, top: 0, right: 1000, bottom: 2000 }), node('n0.0', 'n0', { left: 100, top: 100, right: 400, bottom: 200 }, 'Sign in')],
    },
    { sessionId: 'S', serial: 'emu' },
  );
  ui.enterFrozen();
});

describe('annotate', () => {
  it('picks the node under a click, else a small area around it', () => {
    pickPoint(transport, 200, 150);
    expect(ui.pending?.target).toMatchObject({ type: 'node', nodeUid: 'n0.0' });
    expect(ui.pending?.nodeUid).toBe('n0.0');
    ui.cancelPending();
    pickArea(transport, { left: 10, top: 10, right: 50, bottom: 50 });
    expect(ui.pending?.target.type).toBe('area');
    pickScreen(transport);
    expect(ui.pending).toMatchObject({ target: { type: 'screen' }, label: 'Whole screen' });
  });

  it('makes the area of a click on an empty spot in whole device pixels, on the screen', () => {
    // A stage scale that is not whole turns the click into a fractional device point.
    for (const [x, y] of [
      [516.2, 260.47412353923204],
      [3.5, 1999.75],
      [999.9, 0.4],
    ]) {
      ui.cancelPending();
      draft.index = null;
      pickPoint(transport, x, y);
      const t = ui.pending?.target;
      if (t?.type !== 'area') throw new Error(`no area for (${x},${y}): ${JSON.stringify(t)}`);
      for (const v of Object.values(t.bounds)) expect(Number.isInteger(v), `${JSON.stringify(t.bounds)}`).toBe(true);
      expect(t.bounds.left).toBeGreaterThanOrEqual(0);
      expect(t.bounds.top).toBeGreaterThanOrEqual(0);
      expect(t.bounds.right).toBeLessThanOrEqual(1000);
      expect(t.bounds.bottom).toBeLessThanOrEqual(2000);
    }
  });

  it('adds the pending annotation, re-scopes it, and undoes and redoes the list', () => {
    pickPoint(transport, 200, 150);
    ui.pendingComment = '  bolder  ';
    addPending();
    expect(ui.pending).toBeNull();
    expect(draft.items.map((i) => i.comment)).toEqual(['bolder']);
    const id = draft.items[0].draftItemId;
    ui.editingDraftId = id;
    rescope('n0');
    expect(draft.items[0].target).toMatchObject({ type: 'node', nodeUid: 'n0' });
    undo();
    expect(ui.editingDraftId).toBe('');
    expect(draft.items[0].target).toMatchObject({ nodeUid: 'n0.0' });
    redo();
    expect(draft.items[0].target).toMatchObject({ nodeUid: 'n0' });
    ui.editingDraftId = id;
    removeDraft(id);
    expect([draft.items.length, ui.editingDraftId]).toEqual([0, '']);
  });

  it('leaves a saved screen for the live preview', async () => {
    ui.selectItem('i1', 'scr1');
    draft.close(true);
    ui.stageMode = 'saved';
    await selectMode(transport);
    expect([ui.stageMode, ui.tool, ui.savedScreenId, ui.selectedItemId]).toEqual(['live', 'select', '', '']);
  });

  it('goes back to live when Select is pressed while the freeze is on its way', async () => {
    draft.close(true);
    ui.backToLive();
    app.activeSessionId = 'S';
    app.selectedSerial = 'emu';
    let land!: (v: unknown) => void;
    const frozen = { frozenId: 'p2', imageUrl: '/img2', screen: screen({ fingerprint: 'fp2', width: 1000, height: 2000 }), nodes: [] };
    const api = {
      freeze: vi.fn(() => new Promise((r) => (land = r))),
      resume: vi.fn(async () => ({ ok: true })),
    };
    const t = { api } as unknown as Transport;
    const pressedA = annotate(t);
    await vi.waitFor(() => expect(api.freeze).toHaveBeenCalled());
    expect(ui.busy).toBe('freezing');
    await selectMode(t); // S, before the freeze has landed
    land(frozen);
    await pressedA;
    expect([ui.stageMode, ui.tool, ui.busy, draft.workspace]).toEqual(['live', 'select', '', null]);
    expect(api.resume).toHaveBeenCalledTimes(1);

    // Another session opened while the freeze was on its way: live too.
    const again = annotate(t);
    await vi.waitFor(() => expect(api.freeze).toHaveBeenCalledTimes(2));
    app.activeSessionId = 'T';
    land(frozen);
    await again;
    expect([ui.stageMode, ui.busy, draft.workspace]).toEqual(['live', '', null]);
    expect(api.resume).toHaveBeenCalledTimes(2);
    app.activeSessionId = 'S';

    // The next A freezes as usual.
    api.freeze.mockImplementation(async () => frozen);
    await annotate(t);
    expect([ui.stageMode, draft.workspace?.context.frozenId]).toEqual(['frozen', 'p2']);
    expect(api.resume).toHaveBeenCalledTimes(2);
  });
});

import { describe, expect, it } from 'vitest';
import { UiState } from './ui.svelte';

describe('UiState', () => {
  it('keeps a typed comment when the target is picked again', () => {
    const ui = new UiState();
    ui.setPending({ type: 'screen' }, 'Whole screen');
    ui.pendingComment = 'bigger';
    ui.pendingSeverity = 'high';
    ui.setPending({ type: 'area', bounds: { left: 0, top: 0, right: 10, bottom: 10 } }, 'Visual area');
    expect(ui.pending?.label).toBe('Visual area');
    expect(ui.pendingComment).toBe('bigger');
    expect(ui.pendingSeverity).toBe('high');
    expect(ui.focusCommentTick).toBe(2);
    ui.cancelPending();
    ui.setPending({ type: 'screen' }, 'Whole screen');
    expect(ui.pendingComment).toBe('');
    expect(ui.pendingSeverity).toBe('med');
  });

  it('opens a saved item on its screen outside Annotate only', () => {
    const ui = new UiState();
    ui.drawerOpen = true;
    ui.selectItem('i1', 'scr1');
    expect([ui.stageMode, ui.savedScreenId, ui.selectedItemId, ui.drawerOpen]).toEqual(['saved', 'scr1', 'i1', false]);
    ui.enterFrozen();
    ui.selectItem('i2', 'scr2');
    expect([ui.stageMode, ui.savedScreenId, ui.tool]).toEqual(['frozen', 'scr1', 'annotate']);
    ui.backToLive();
    expect([ui.stageMode, ui.tool]).toEqual(['live', 'select']);
  });

  it('edits a pending annotation back on its frozen frame when there is one', () => {
    const ui = new UiState();
    ui.selectedItemId = 'i1';
    ui.editDraft('d1', false);
    expect([ui.editingDraftId, ui.selectedItemId, ui.stageMode]).toEqual(['d1', '', 'live']);
    ui.editDraft('d1', true);
    expect(ui.stageMode).toBe('frozen');
  });
});

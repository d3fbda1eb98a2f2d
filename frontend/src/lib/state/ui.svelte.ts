import type { DraftClip, Recovery } from '../workspace';
import type { ScreenWindow, Session, Target, UiNode } from '../types';

export type Tool = 'select' | 'annotate';
export type StageMode = 'live' | 'frozen' | 'saved';

export interface PendingTarget {
  target: Target;
  /** For node targets: the picked node; the breadcrumb can re-scope to an ancestor. */
  nodeUid?: string;
  label: string;
}

export type Dialog =
  | { kind: 'dirtySwitch'; toSessionId: string | null }
  | { kind: 'fingerprintMismatch'; frozen: string; current: string; action: 'copy' | 'save' }
  | { kind: 'staleDraft'; action: 'copy' | 'save'; serverDraft: Session | null }
  | { kind: 'clipboard'; text: string }
  | { kind: 'confirmClearDraft' }
  | { kind: 'confirmDeleteSession'; sessionId: string; title: string };

/** View state that the server does not know about. */
export class UiState {
  tool = $state<Tool>('select');
  stageMode = $state<StageMode>('live');
  /** Screen shown in "Saved screen" mode. */
  savedScreenId = $state('');
  selectedItemId = $state('');
  /** Draft (browser-local) item being edited in the inspector. */
  editingDraftId = $state('');
  pending = $state<PendingTarget | null>(null);
  pendingComment = $state('');
  pendingSeverity = $state<'high' | 'med' | 'low'>('med');
  /** The clip the pending annotation carries (Clip last 5 s). */
  pendingClip = $state<DraftClip | null>(null);
  /** The clip button's state: cutting a clip, or recording while it is held. */
  /** Node outlined while hovering the frame or a breadcrumb crumb. */
  hoverNode = $state<UiNode | null>(null);
  /** A window other than the app's under the pointer on the frozen frame (the keyboard). */
  hoverWindow = $state<ScreenWindow | null>(null);
  /** Node under the keyboard cursor on the frozen frame (Tab / arrows walk, Enter picks). */
  keyNode = $state<UiNode | null>(null);
  drawerOpen = $state(false);
  connectOpen = $state(false);
  devicesOpen = $state(false);
  dialog = $state<Dialog | null>(null);
  recovery = $state<Recovery | null>(null);
  busy = $state<'' | 'freezing' | 'saving' | 'copying' | 'sending'>('');
  /** Bumped to ask the inspector to focus the comment box. */
  focusCommentTick = $state(0);

  /** Annotate mode on the frozen frame. */
  enterFrozen(): void {
    this.stageMode = 'frozen';
    this.tool = 'annotate';
  }

  /** Select mode on the live preview. */
  backToLive(): void {
    this.stageMode = 'live';
    this.tool = 'select';
  }

  /** A new target to annotate; a comment already typed for the previous one is kept. */
  setPending(target: Target, label: string, nodeUid?: string): void {
    this.editingDraftId = '';
    this.selectedItemId = '';
    if (!this.pending) {
      this.pendingComment = '';
      this.pendingSeverity = 'med';
      this.pendingClip = null;
    }
    this.pending = { target, label, nodeUid };
    this.focusCommentTick++;
  }

  cancelPending(): void {
    this.pending = null;
    this.pendingComment = '';
    this.pendingClip = null;
    this.hoverNode = null;
  }

  /** Opens a pending annotation in the inspector, back on its frozen frame if needed. */
  editDraft(draftItemId: string, frozenAvailable: boolean): void {
    this.pending = null;
    this.selectedItemId = '';
    this.editingDraftId = draftItemId;
    if (this.stageMode !== 'frozen' && frozenAvailable) this.stageMode = 'frozen';
  }

  /** Selects a saved annotation; outside Annotate the stage shows its saved screen. */
  selectItem(itemId: string, screenId: string | undefined): void {
    this.pending = null;
    this.editingDraftId = '';
    this.selectedItemId = itemId;
    if (this.stageMode !== 'frozen' && screenId) {
      this.stageMode = 'saved';
      this.savedScreenId = screenId;
    }
    this.drawerOpen = false;
  }

  clearSelection(): void {
    this.pending = null;
    this.pendingComment = '';
    this.pendingClip = null;
    this.pendingSeverity = 'med';
    this.editingDraftId = '';
    this.selectedItemId = '';
    this.hoverNode = null;
    this.hoverWindow = null;
    this.keyNode = null;
  }
}

export const ui = new UiState();

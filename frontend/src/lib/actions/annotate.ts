// Annotate and Select: freezing the screen, picking nodes, areas or the whole screen,
// editing the pending annotations with undo/redo, and going back to live.
import { IME_LABEL, areaAround, keyboardAt, nodeLabel, snapshotOf } from '../hittest';
import { app } from '../features/session/state.svelte';
import { draft } from '../state/draft.svelte';
import { ui } from '../state/ui.svelte';
import type { Transport } from '../transport';
import type { Bounds, Target, UiNode } from '../types';
import type { DraftItem } from '../workspace';
import { checkRecovery } from './recovery';
import { report } from './report';
import { persistPending } from './save';
import { announce } from '../features/voice/actions';
import { ensureSession } from '../features/session/actions';

/** Set when Select is pressed while a freeze is in flight: it is undone when it lands. */
let freezeWithdrawn = false;

/** Enters Annotate: freezes the latest frame with its UI tree. */
export async function annotate(transport: Transport): Promise<void> {
  if (ui.stageMode === 'frozen' && draft.workspace) {
    ui.tool = 'annotate';
    return;
  }
  if (ui.busy) return;
  if (!app.selectedSerial) {
    app.notify('warning', 'Connect a device or use the demo device first, then press A to annotate.');
    return;
  }
  ui.busy = 'freezing';
  freezeWithdrawn = false;
  try {
    const sessionId = await ensureSession(transport);
    if (!sessionId) return;
    const f = await transport.api.freeze(app.selectedSerial, sessionId);
    if (freezeWithdrawn || app.activeSessionId !== sessionId) {
      // Select was pressed, or another session opened, while the freeze was on its
      // way: the console stays live, so the phone's preview must too.
      await transport.api.resume().catch(() => undefined);
      return;
    }
    draft.close(false);
    draft.begin(f, { sessionId, serial: app.selectedSerial });
    ui.clearSelection();
    ui.enterFrozen();
    ui.recovery = null;
  } catch (err) {
    report(err, 'Could not freeze the screen', 'The live preview is unchanged; try Annotate again.');
  } finally {
    ui.busy = '';
  }
}

/** Back to the live preview. Written annotations are saved as drafts first. */
export async function selectMode(transport: Transport): Promise<void> {
  if (ui.stageMode === 'saved') {
    ui.backToLive();
    ui.savedScreenId = '';
    ui.selectedItemId = '';
    return;
  }
  if (ui.stageMode !== 'frozen') {
    // A (freeze) then S at once: the freeze still lands on the server; it is resumed
    // when it does, or the phone would stay frozen behind a live-looking console.
    if (ui.busy === 'freezing') freezeWithdrawn = true;
    ui.tool = 'select';
    return;
  }
  if (draft.written.length > 0) {
    const saved = await persistPending(transport, 'leave', () => selectMode(transport));
    if (saved === null) return;
  }
  if (draft.items.length > 0) app.notify('info', 'Pins without a comment were kept in this browser; recover them from the banner.');
  draft.close(false);
  ui.clearSelection();
  ui.backToLive();
  try {
    await transport.api.resume();
  } catch {
    // the live loop resumes on its own when the next watcher arrives
  }
  if (app.activeSessionId) checkRecovery(app.activeSessionId, true);
}

export function nodeTarget(node: UiNode): Target {
  return { type: 'node', nodeUid: node.uid, bounds: { ...node.bounds }, snapshot: snapshotOf(node) };
}

export function pickPoint(transport: Transport, x: number, y: number): void {
  // The dump is the app's window only: nodes lie under the keyboard too, but a click
  // there is on the input method.
  const ime = keyboardAt(draft.workspace?.frozenScreen?.windows, x, y);
  if (ime) {
    ui.setPending({ type: 'area', bounds: { ...ime.bounds } }, IME_LABEL);
    announce(transport, { kind: 'click', x: Math.round(x), y: Math.round(y), bounds: { ...ime.bounds } });
    return;
  }
  const node = draft.index?.hitTest(x, y);
  if (node) ui.setPending(nodeTarget(node), nodeLabel(node), node.uid);
  else {
    const screen = draft.workspace?.frozenScreen;
    ui.setPending({ type: 'area', bounds: areaAround(x, y, screen?.width, screen?.height) }, 'Visual area');
  }
  announce(transport, { kind: 'click', x: Math.round(x), y: Math.round(y), ...(node ? { nodeUid: node.uid, bounds: { ...node.bounds } } : {}) });
}

/** Picks a node by uid, as a click on it would (keyboard annotation). */
export function pickNode(transport: Transport, uid: string): void {
  const node = draft.index?.byUid.get(uid);
  if (!node) return;
  ui.setPending(nodeTarget(node), nodeLabel(node), node.uid);
  announce(transport, { kind: 'click', nodeUid: node.uid, bounds: { ...node.bounds } });
}

export function pickArea(transport: Transport, bounds: Bounds): void {
  const hint = draft.index?.bestForArea(bounds);
  ui.setPending({ type: 'area', bounds }, hint ? `Area near ${nodeLabel(hint)}` : 'Visual area');
  announce(transport, { kind: 'area', bounds: { ...bounds } });
}

export function pickScreen(transport: Transport): void {
  if (ui.stageMode !== 'frozen') return;
  ui.setPending({ type: 'screen' }, 'Whole screen');
  announce(transport, { kind: 'screen' });
}

/** Re-scopes the pending target (or an edited draft item) to an ancestor from the breadcrumb. */
export function rescope(uid: string): void {
  const node = draft.index?.byUid.get(uid);
  if (!node) return;
  if (ui.pending) {
    ui.pending = { ...ui.pending, target: nodeTarget(node), label: nodeLabel(node), nodeUid: uid };
  } else if (ui.editingDraftId) {
    draft.update(ui.editingDraftId, { target: nodeTarget(node), label: nodeLabel(node) });
  }
  ui.focusCommentTick++;
}

export function addPending(): void {
  const p = ui.pending;
  if (!p) return;
  draft.add(JSON.parse(JSON.stringify(p.target)) as Target, ui.pendingComment.trim(), ui.pendingSeverity, p.label, ui.pendingClip ?? undefined);
  ui.cancelPending();
}

export function cancelPending(): void {
  ui.cancelPending();
}

export function editDraft(draftItemId: string): void {
  ui.editDraft(draftItemId, Boolean(draft.workspace));
}

export function updateDraft(draftItemId: string, patch: Partial<Pick<DraftItem, 'comment' | 'severity'>>): void {
  draft.update(draftItemId, patch);
}

export function removeDraft(draftItemId: string): void {
  draft.remove(draftItemId);
  if (ui.editingDraftId === draftItemId) ui.editingDraftId = '';
}

export function undo(): void {
  if (draft.stepBack()) ui.editingDraftId = '';
}

export function redo(): void {
  if (draft.stepForward()) ui.editingDraftId = '';
}

/** The ancestry breadcrumb of the current node target. */
export function crumbsFor(target: Target | undefined): UiNode[] {
  if (!target || target.type !== 'node' || !draft.index) return [];
  return draft.index.crumbs(target.nodeUid);
}

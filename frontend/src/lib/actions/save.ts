// Saving the pending annotations (one idempotent batch), Copy Prompt, Save to MCP, and
// the 409/412 conflict dialogs that a save can open (docs/console.md, "Saving and
// handing off"). Every async result is fenced by the session that asked.
import { ApiError } from '../api';
import { autoEvidenceText } from '../evidence';
import { wholeBounds } from '../hittest';
import { promptReadiness, type Readiness } from '../readiness';
import { app } from '../features/session/state.svelte';
import { draft } from '../state/draft.svelte';
import { ui } from '../state/ui.svelte';
import type { Transport } from '../transport';
import type { Item, Session, Target } from '../types';
import { report } from './report';

/** Why the pending annotations are being saved: the dialogs word their choices by it. */
export type PersistAction = 'copy' | 'save' | 'leave';

/** One-shot overrides chosen in a conflict dialog, used by the next save only. */
const overrides = { force: false, overwrite: false };
/** What to run again once a conflict dialog is answered. */
let retry: () => Promise<void> = async () => undefined;

/**
 * Saves the written pending annotations as session items. Returns the saved items, or
 * null when the save did not happen (a dialog now asks the user, or it failed). When a
 * dialog opens, `again` runs after the user chose to go on.
 */
/**
 * A copy of t in whole device pixels. The console makes whole targets, but a draft kept
 * in this browser by an earlier version may hold a fractional area, which the server
 * refuses.
 */
function wholeTarget(t: Target): Target {
  const copy = JSON.parse(JSON.stringify(t)) as Target;
  return copy.type === 'screen' ? copy : { ...copy, bounds: wholeBounds(copy.bounds) };
}

export async function persistPending(transport: Transport, action: PersistAction, again: () => Promise<void>): Promise<Item[] | null> {
  const ws = draft.workspace;
  const written = draft.written;
  const { force, overwrite } = overrides;
  overrides.force = false;
  overrides.overwrite = false;
  if (!ws || written.length === 0) return [];
  const sessionId = ws.context.sessionId;
  if (sessionId !== app.activeSessionId) return null;
  const sent = written.map((i) => ({
    draftItemId: i.draftItemId,
    target: wholeTarget(i.target),
    severity: i.severity,
    comment: i.comment.trim(),
    ...(i.clip ? { clipId: i.clip.clipId } : {}),
    ...(i.check ? { check: i.check } : {}),
  }));
  const ifMatch = overwrite ? '*' : (app.etags.get(sessionId) ?? app.session?.etag ?? null);
  try {
    const r = await transport.api.saveBatch(
      {
        sessionId,
        frozenId: ws.context.frozenId,
        workspaceId: ws.workspaceId,
        frozenFingerprint: ws.frozenScreen?.fingerprint ?? '',
        forceMismatchOverride: force || undefined,
        items: sent,
      },
      ifMatch,
    );
    app.applySession(sessionId, r.data.session, r.etag ?? r.data.session?.etag);
    if (draft.workspace?.workspaceId === ws.workspaceId) draft.dropSaved(sent.map((i) => i.draftItemId));
    return r.data.items ?? [];
  } catch (err) {
    if (app.activeSessionId !== sessionId) return null;
    const asked = action === 'leave' ? 'save' : action;
    if (err instanceof ApiError && err.status === 409 && err.code === 'screen_fingerprint_mismatch') {
      ui.dialog = {
        kind: 'fingerprintMismatch',
        frozen: String(err.body.frozenFingerprint ?? ''),
        current: String(err.body.currentFingerprint ?? ''),
        action: asked,
      };
      retry = again;
      return null;
    }
    if (err instanceof ApiError && err.status === 412) {
      ui.dialog = { kind: 'staleDraft', action: asked, serverDraft: (err.body.serverDraft as Session | undefined) ?? null };
      retry = again;
      return null;
    }
    report(err, 'Could not save the annotations', 'They are still here as a draft.');
    return null;
  }
}

export async function resolveMismatch(transport: Transport, choice: 'recapture' | 'force' | 'cancel'): Promise<void> {
  ui.dialog = null;
  if (choice === 'cancel') return;
  if (choice === 'force') {
    overrides.force = true;
    await retry();
    return;
  }
  await recaptureDraft(transport);
}

export async function resolveStale(transport: Transport, choice: 'keep' | 'server' | 'cancel'): Promise<void> {
  const d = ui.dialog;
  ui.dialog = null;
  if (choice === 'cancel' || !d || d.kind !== 'staleDraft') return;
  if (choice === 'keep') {
    overrides.overwrite = true;
    await retry();
    return;
  }
  // Use the server's version: local pending work goes, the server's session comes in.
  draft.close(true);
  ui.clearSelection();
  const server = d.serverDraft;
  if (server && Array.isArray(server.items) && server.sessionId === app.activeSessionId) app.applySession(server.sessionId, server, server.etag);
  else await transport.sync.reloadActiveSession();
  ui.backToLive();
  void transport.api.resume().catch(() => undefined);
  app.notify('info', "Loaded the server's version of this session; your local pending annotations were discarded.");
}

/** Re-freezes the current device screen and keeps the draft's annotations on it. */
export async function recaptureDraft(transport: Transport): Promise<void> {
  const sessionId = app.activeSessionId;
  if (!sessionId || !app.selectedSerial) {
    app.notify('warning', 'Connect a device first: Recapture needs the current screen.');
    return;
  }
  ui.busy = 'freezing';
  try {
    const f = await transport.api.freeze(app.selectedSerial, sessionId);
    if (app.activeSessionId !== sessionId) return;
    draft.rebase(f);
    ui.enterFrozen();
    app.notify('info', 'Captured the current screen. Check that each pin still points at the right element, then hand off again.');
  } catch (err) {
    report(err, 'Could not capture the screen', 'Your annotations are unchanged.');
  } finally {
    ui.busy = '';
  }
}

export function readiness(): Readiness {
  return promptReadiness({
    hasSession: Boolean(app.activeSessionId),
    sessionClosed: app.session?.status === 'closed',
    pendingWritten: draft.written.length,
    pendingPinOnly: draft.pinOnly.length,
    items: app.session?.items ?? [],
  });
}

async function writeClipboard(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard?.writeText) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

const plural = (n: number) => `${n} annotation${n === 1 ? '' : 's'}`;

/**
 * What Copy Prompt and Save to MCP share: one runs at a time, the pending annotations
 * with a comment are saved first (`self` runs again after a conflict dialog), then
 * `send` gets the saved items that readiness says this action takes.
 */
async function handOff(
  transport: Transport,
  action: 'copy' | 'save',
  self: () => Promise<void>,
  words: { nothing: string; failed: string; safeNext: string },
  send: (sessionId: string, ids: string[]) => Promise<void>,
): Promise<void> {
  if (ui.busy) return;
  ui.busy = action === 'copy' ? 'copying' : 'sending';
  try {
    const saved = await persistPending(transport, action, self);
    if (saved === null) return;
    const sessionId = app.activeSessionId;
    const ready = readiness();
    const ids = action === 'copy' ? ready.copyItemIds : ready.saveItemIds;
    if (!sessionId || ids.length === 0) {
      app.notify('warning', words.nothing);
      return;
    }
    await send(sessionId, ids);
  } catch (err) {
    report(err, words.failed, words.safeNext);
  } finally {
    ui.busy = '';
  }
}

export function copyPrompt(transport: Transport): Promise<void> {
  const words = {
    nothing: 'Nothing to copy yet: write a comment on an annotation first.',
    failed: 'Copy Prompt failed',
    safeNext: 'Your annotations are saved; try again.',
  };
  return handOff(transport, 'copy', () => copyPrompt(transport), words, async (sessionId, ids) => {
    const r = await transport.api.handoffPreview(sessionId, ids, true);
    if (app.activeSessionId !== sessionId) return;
    if (await writeClipboard(r.markdown)) {
      app.notify('success', `Prompt copied (${plural(ids.length)}). Paste it into your agent.`, { topic: 'handoff' });
    } else {
      ui.dialog = { kind: 'clipboard', text: r.markdown };
      app.notify('warning', 'The browser refused clipboard access. The prompt is selected in the dialog: press Ctrl/Cmd-C to copy it.', { topic: 'handoff' });
    }
  });
}

export function saveToMcp(transport: Transport): Promise<void> {
  const words = {
    nothing: 'Nothing new to save to MCP: every annotation is already handed off or still needs a comment.',
    failed: 'Save to MCP failed',
    safeNext: 'Your annotations are kept; try again.',
  };
  return handOff(transport, 'save', () => saveToMcp(transport), words, async (sessionId, ids) => {
    const r = await transport.api.agentHandoff(sessionId, ids);
    if (app.activeSessionId !== sessionId) return;
    app.applySession(sessionId, r.session);
    // Save to MCP completes the handoff: residual pin-only annotations are not carried on.
    const wasFrozen = ui.stageMode === 'frozen';
    draft.close(true);
    ui.clearSelection();
    ui.backToLive();
    if (wasFrozen) void transport.api.resume().catch(() => undefined);
    const waiting = app.agent?.presence === 'listening' ? 'Your agent is listening and will pick them up now.' : 'They wait for your agent: ask it to call fixthis_wait_for_feedback.';
    const diagnostics = autoEvidenceText(r.runtimeEvidence);
    app.notify('success', `Saved to MCP: ${plural(ids.length)}. ${waiting}${diagnostics ? ' ' + diagnostics : ''}`, { topic: 'handoff' });
  });
}

/** Save to MCP on one saved annotation: releases that item only. */
export async function saveOneToMcp(transport: Transport, itemId: string): Promise<void> {
  if (ui.busy) return;
  const sessionId = app.activeSessionId;
  if (!sessionId) return;
  ui.busy = 'sending';
  try {
    const r = await transport.api.agentHandoff(sessionId, [itemId]);
    if (app.activeSessionId !== sessionId || !r.session) return;
    app.applySession(sessionId, r.session);
    const seq = r.session.items.find((i) => i.itemId === itemId)?.sequenceNumber;
    app.notify('success', `Saved to MCP: annotation ${seq ?? ''}`.trim() + ' only.', { topic: 'handoff' });
  } catch (err) {
    report(err, 'Save to MCP failed', 'The annotation is kept; try again.');
  } finally {
    ui.busy = '';
  }
}

/** Instant pickup: saves the finished annotations at once (the server releases them). */
export async function saveInstantly(transport: Transport): Promise<void> {
  ui.busy = 'sending';
  try {
    await persistPending(transport, 'save', () => saveInstantly(transport));
  } finally {
    ui.busy = '';
  }
}

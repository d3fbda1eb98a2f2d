// Saving pending annotations, Copy Prompt, Save to MCP, conflict dialogs, saved-item
// actions and draft recovery. Every async result is fenced by the session that asked.
import { ApiError } from './api';
import { ctx } from './ctx';
import { autoEvidenceText } from './evidence';
import { summaryOf, upsertSummary } from './events';
import { promptReadiness } from './readiness';
import { app } from './state/app.svelte';
import { draft } from './state/draft.svelte';
import { sources } from './state/sources.svelte';
import { sourcesKey } from './sources';
import { ui } from './state/ui.svelte';
import type { Item, Session, Severity } from './types';
import { listWorkspaces, recoveryFor, removeWorkspace } from './workspace';

function sentence(text: string): string {
  const t = text.trim();
  return /[.!?…]$/.test(t) ? t : `${t}.`;
}

export function report(err: unknown, what: string, safeNext = ''): void {
  if (err instanceof ApiError) {
    if (err.status === 401 || err.status === 403) return ctx.sync.reportHttpError(err);
    const next = safeNext ? ` ${safeNext}` : '';
    const text =
      err.status === 0
        ? `${what}: the FixThis app is not reachable.${next || ' Your draft is preserved; try again once it is running.'}`
        : `${what}: ${sentence(err.message)}${next}`;
    app.notify('error', text, { detail: err.code });
    return;
  }
  app.notify('error', `${what}: ${(err as Error)?.message ?? String(err)}${safeNext ? ` ${safeNext}` : ''}`);
}

function applySession(sessionId: string, session: Session | undefined, etag?: string | null): void {
  if (etag) app.etags.set(sessionId, etag);
  if (!session || app.activeSessionId !== sessionId) return;
  app.session = session;
  app.sessions = upsertSummary(app.sessions, summaryOf(session));
}

function replaceItem(sessionId: string, item: Item | undefined): void {
  if (!item || app.activeSessionId !== sessionId || !app.session) return;
  app.session = { ...app.session, items: app.session.items.map((i) => (i.itemId === item.itemId ? item : i)) };
}

type PersistAction = 'copy' | 'save' | 'leave';
const overrides = { force: false, overwrite: false };

/**
 * Saves the written pending annotations as session items. Returns the saved items, or
 * null when the save did not happen (a dialog now asks the user, or it failed).
 */
export async function persistPending(action: PersistAction): Promise<Item[] | null> {
  const ws = draft.workspace;
  const written = draft.written;
  const force = overrides.force;
  const overwrite = overrides.overwrite;
  overrides.force = false;
  overrides.overwrite = false;
  if (!ws || written.length === 0) return [];
  const sessionId = ws.context.sessionId;
  if (sessionId !== app.activeSessionId) return null;
  const sent = written.map((i) => ({
    draftItemId: i.draftItemId,
    target: JSON.parse(JSON.stringify(i.target)),
    severity: i.severity,
    comment: i.comment.trim(),
  }));
  const ifMatch = overwrite ? '*' : (app.etags.get(sessionId) ?? app.session?.etag ?? null);
  try {
    const r = await ctx.api.saveBatch(
      {
        sessionId,
        previewId: ws.context.previewId,
        workspaceId: ws.workspaceId,
        frozenFingerprint: ws.frozenScreen?.fingerprint ?? '',
        forceMismatchOverride: force || undefined,
        items: sent,
      },
      ifMatch,
    );
    applySession(sessionId, r.data.session, r.etag ?? r.data.session?.etag);
    if (draft.workspace?.workspaceId === ws.workspaceId) draft.dropSaved(sent.map((i) => i.draftItemId));
    return r.data.items ?? [];
  } catch (err) {
    if (app.activeSessionId !== sessionId) return null;
    if (err instanceof ApiError && err.status === 409 && err.code === 'screen_fingerprint_mismatch') {
      ui.dialog = {
        kind: 'fingerprintMismatch',
        frozen: String(err.body.frozenFingerprint ?? ''),
        current: String(err.body.currentFingerprint ?? ''),
        action: action === 'leave' ? 'save' : action,
      };
      pendingAction = action;
      return null;
    }
    if (err instanceof ApiError && err.status === 412) {
      ui.dialog = { kind: 'staleDraft', action: action === 'leave' ? 'save' : action, serverDraft: err.body.serverDraft ?? null };
      pendingAction = action;
      return null;
    }
    report(err, 'Could not save the annotations', 'They are still here as a draft.');
    return null;
  }
}

let pendingAction: PersistAction = 'save';

async function rerun(action: PersistAction): Promise<void> {
  if (action === 'copy') await copyPrompt();
  else if (action === 'save') await saveToMcp();
  else await leaveFrozen();
}

let leaveFrozen: () => Promise<void> = async () => undefined;

/** The controller's Select-mode action, re-run after a conflict dialog (avoids an import cycle). */
export function setLeaveFrozen(fn: () => Promise<void>): void {
  leaveFrozen = fn;
}

export async function resolveMismatch(choice: 'recapture' | 'force' | 'cancel'): Promise<void> {
  ui.dialog = null;
  if (choice === 'cancel') return;
  if (choice === 'force') {
    overrides.force = true;
    await rerun(pendingAction);
    return;
  }
  await recaptureDraft();
}

export async function resolveStale(choice: 'keep' | 'server' | 'cancel'): Promise<void> {
  const d = ui.dialog;
  ui.dialog = null;
  if (choice === 'cancel' || !d || d.kind !== 'staleDraft') return;
  if (choice === 'keep') {
    overrides.overwrite = true;
    await rerun(pendingAction);
    return;
  }
  // Use the server's version: local pending work goes, the server's session comes in.
  draft.close(true);
  ui.clearSelection();
  const server = d.serverDraft as (Partial<Session> & { session?: Session }) | null;
  const session = server?.session ?? (server && Array.isArray(server.items) ? (server as Session) : null);
  if (session && session.sessionId === app.activeSessionId) applySession(session.sessionId, session, session.etag);
  else await ctx.sync.reloadActiveSession();
  ui.stageMode = 'live';
  ui.tool = 'select';
  void ctx.api.resume().catch(() => undefined);
  app.notify('info', "Loaded the server's version of this session; your local pending annotations were discarded.");
}

/** Re-freezes the current device screen and keeps the draft's annotations on it. */
export async function recaptureDraft(): Promise<void> {
  const sessionId = app.activeSessionId;
  if (!sessionId || !app.selectedSerial) {
    app.notify('warning', 'Connect a device first: Recapture needs the current screen.');
    return;
  }
  ui.busy = 'freezing';
  try {
    const f = await ctx.api.freeze(app.selectedSerial, sessionId);
    if (app.activeSessionId !== sessionId) return;
    draft.rebase(f);
    ui.stageMode = 'frozen';
    ui.tool = 'annotate';
    app.notify('info', 'Captured the current screen. Check that each pin still points at the right element, then hand off again.');
  } catch (err) {
    report(err, 'Could not capture the screen', 'Your annotations are unchanged.');
  } finally {
    ui.busy = '';
  }
}

export function readiness() {
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

export async function copyPrompt(): Promise<void> {
  if (ui.busy) return;
  ui.busy = 'copying';
  try {
    const saved = await persistPending('copy');
    if (saved === null) return;
    const sessionId = app.activeSessionId;
    const ids = readiness().copyItemIds;
    if (!sessionId || ids.length === 0) {
      app.notify('warning', 'Nothing to copy yet: write a comment on an annotation first.');
      return;
    }
    const r = await ctx.api.handoffPreview(sessionId, ids, true);
    if (app.activeSessionId !== sessionId) return;
    lastPrompt = r.markdown;
    if (await writeClipboard(r.markdown)) {
      app.notify('success', `Prompt copied (${ids.length} annotation${ids.length === 1 ? '' : 's'}). Paste it into your agent.`, { topic: 'handoff' });
    } else {
      ui.dialog = { kind: 'clipboard', text: r.markdown };
      app.notify('warning', 'The browser refused clipboard access. The prompt is selected in the dialog: press Ctrl/Cmd-C to copy it.', { topic: 'handoff' });
    }
  } catch (err) {
    report(err, 'Copy Prompt failed', 'Your annotations are saved; try again.');
  } finally {
    ui.busy = '';
  }
}

/** The last prompt text produced by Copy Prompt (for the clipboard fallback and tests). */
export let lastPrompt = '';

export async function saveToMcp(): Promise<void> {
  if (ui.busy) return;
  ui.busy = 'sending';
  try {
    const saved = await persistPending('save');
    if (saved === null) return;
    const sessionId = app.activeSessionId;
    const ids = readiness().saveItemIds;
    if (!sessionId || ids.length === 0) {
      app.notify('warning', 'Nothing new to save to MCP: every annotation is already handed off or still needs a comment.');
      return;
    }
    const r = await ctx.api.agentHandoff(sessionId, ids);
    if (app.activeSessionId !== sessionId) return;
    applySession(sessionId, r.session);
    // Save to MCP completes the handoff: residual pin-only annotations are not carried on.
    const wasFrozen = ui.stageMode === 'frozen';
    draft.close(true);
    ui.clearSelection();
    ui.stageMode = 'live';
    ui.tool = 'select';
    if (wasFrozen) void ctx.api.resume().catch(() => undefined);
    const waiting = app.agent?.presence === 'listening' ? 'Your agent is listening and will pick them up now.' : 'They wait for your agent: ask it to call fixthis_wait_for_feedback.';
    const diagnostics = autoEvidenceText(r.runtimeEvidence);
    app.notify('success', `Saved to MCP: ${ids.length} annotation${ids.length === 1 ? '' : 's'}. ${waiting}${diagnostics ? ' ' + diagnostics : ''}`, { topic: 'handoff' });
  } catch (err) {
    report(err, 'Save to MCP failed', 'Your annotations are kept; try again.');
  } finally {
    ui.busy = '';
  }
}

// ---------------------------------------------------------------- saved items

export function selectSavedItem(itemId: string): void {
  ui.pending = null;
  ui.editingDraftId = '';
  ui.selectedItemId = itemId;
  const item = app.session?.items.find((i) => i.itemId === itemId);
  if (ui.stageMode !== 'frozen' && item?.screenId) {
    ui.stageMode = 'saved';
    ui.savedScreenId = item.screenId;
  }
  ui.drawerOpen = false;
}

const INDEXING_RETRY_MS = 1500;

/**
 * Fetches a saved item's source candidates unless the cache already holds them for the
 * item's current target and comment. While the index is still building it asks again
 * shortly, as long as the item is still selected.
 */
export async function loadSources(item: Item, force = false): Promise<void> {
  const sessionId = app.activeSessionId;
  if (!sessionId) return;
  const key = sourcesKey(item);
  const have = sources.get(sessionId, item.itemId);
  if (!force && have && have.key === key && have.status !== 'error') return;
  sources.set(sessionId, item.itemId, { key, status: 'loading', data: have?.key === key ? have.data : undefined });
  try {
    const data = await ctx.api.itemSources(item.itemId, sessionId);
    if (sources.get(sessionId, item.itemId)?.key !== key) return; // the item changed meanwhile
    sources.set(sessionId, item.itemId, { key, status: 'ready', data });
    if (data.reason === 'index-building' && (data.candidates ?? []).length === 0) {
      setTimeout(() => {
        const cur = app.session?.items.find((i) => i.itemId === item.itemId);
        if (app.activeSessionId !== sessionId || !cur) return;
        if (ui.selectedItemId === item.itemId) void loadSources(cur, true);
        else sources.drop(sessionId, item.itemId); // fetch afresh when it is selected again
      }, INDEXING_RETRY_MS);
    }
  } catch (err) {
    if (sources.get(sessionId, item.itemId)?.key !== key) return;
    const message = err instanceof ApiError && err.status === 0 ? 'The FixThis app is not reachable.' : (err as Error).message;
    sources.set(sessionId, item.itemId, { key, status: 'error', error: message });
  }
}

async function itemCall(what: string, fn: (sessionId: string) => Promise<{ item?: Item }>): Promise<void> {
  const sessionId = app.activeSessionId;
  if (!sessionId) return;
  try {
    const r = await fn(sessionId);
    replaceItem(sessionId, r.item);
  } catch (err) {
    report(err, what);
  }
}

export async function deleteSavedItem(itemId: string): Promise<void> {
  const sessionId = app.activeSessionId;
  if (!sessionId) return;
  try {
    await ctx.api.deleteItem(itemId, sessionId);
    if (app.activeSessionId === sessionId && app.session) {
      app.session = { ...app.session, items: app.session.items.filter((i) => i.itemId !== itemId) };
    }
    if (ui.selectedItemId === itemId) ui.selectedItemId = '';
    app.notify('success', 'Annotation deleted. Its number is not reused.');
  } catch (err) {
    report(err, 'Could not delete the annotation');
  }
}

export const editSavedItem = (itemId: string, patch: { comment?: string; severity?: Severity }) =>
  itemCall('Could not update the annotation', (sid) => ctx.api.updateItem(itemId, sid, patch));

export const answerItem = (itemId: string, answer: string) =>
  itemCall('Could not send the answer', (sid) => ctx.api.answer(itemId, sid, answer));

export const resolveItem = (itemId: string, status: 'resolved' | 'wont_fix') =>
  itemCall('Could not resolve the annotation', (sid) => ctx.api.resolve(itemId, sid, status));

export async function clearServerDraft(): Promise<void> {
  ui.dialog = null;
  const sessionId = app.activeSessionId;
  if (!sessionId) return;
  try {
    const r = await ctx.api.clearDraft(sessionId);
    draft.close(true);
    ui.clearSelection();
    await ctx.sync.reloadActiveSession();
    app.notify('success', `Draft cleared (${r.deleted ?? 0} saved draft annotation${r.deleted === 1 ? '' : 's'} deleted).`);
  } catch (err) {
    report(err, 'Could not clear the draft');
  }
}

// ---------------------------------------------------------------- recovery

const checked = new Set<string>();

/** Looks for browser-local pending work of a session; offers it, never restores it silently. */
export function checkRecovery(sessionId: string, force = false): void {
  if (!force && checked.has(sessionId)) return;
  checked.add(sessionId);
  const persisted = app.session?.sessionId === sessionId ? app.session.items : [];
  for (const ws of listWorkspaces(draft.storage, sessionId)) {
    if (ws.workspaceId === draft.workspace?.workspaceId) continue;
    const r = recoveryFor(ws, persisted);
    if (!r) {
      removeWorkspace(draft.storage, sessionId, ws.workspaceId);
      continue;
    }
    ui.recovery = r;
    return;
  }
  ui.recovery = null;
}

export function recoverDraft(): void {
  const r = ui.recovery;
  if (!r || !r.canRecover || r.workspace.context.sessionId !== app.activeSessionId) return;
  if (draft.dirty) draft.close(false);
  draft.adopt({ ...r.workspace, items: r.items });
  draft.persist();
  ui.recovery = null;
  ui.clearSelection();
  ui.stageMode = 'frozen';
  ui.tool = 'annotate';
  app.notify('info', `Recovered ${r.items.length} pending annotation${r.items.length === 1 ? '' : 's'} on the frame you froze earlier.`);
}

export async function recaptureRecovery(): Promise<void> {
  const r = ui.recovery;
  if (!r || r.workspace.context.sessionId !== app.activeSessionId) return;
  if (draft.dirty) draft.close(false);
  draft.adopt({ ...r.workspace, items: r.items });
  ui.recovery = null;
  await recaptureDraft();
}

export function discardRecovery(): void {
  const r = ui.recovery;
  if (!r) return;
  removeWorkspace(draft.storage, r.workspace.context.sessionId, r.workspace.workspaceId);
  ui.recovery = null;
  checkRecovery(r.workspace.context.sessionId, true);
}

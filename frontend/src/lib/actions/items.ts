// Saved annotations: selecting one, its source candidates, editing, answering,
// resolving, deleting, and clearing the session's unsent draft.
import { ApiError } from '../api';
import { sourcesKey } from '../sources';
import { app } from '../features/session/state.svelte';
import { draft } from '../state/draft.svelte';
import { sources } from '../state/sources.svelte';
import { ui } from '../state/ui.svelte';
import type { Transport } from '../transport';
import type { Item, Severity } from '../types';
import { report } from './report';

export function selectSavedItem(itemId: string): void {
  ui.selectItem(itemId, app.session?.items.find((i) => i.itemId === itemId)?.screenId);
}

const INDEXING_RETRY_MS = 1500;

/**
 * Fetches a saved item's source candidates unless the cache already holds them for the
 * item's current target and comment. While the index is still building it asks again
 * shortly, as long as the item is still selected.
 */
export async function loadSources(transport: Transport, item: Item, force = false): Promise<void> {
  const sessionId = app.activeSessionId;
  if (!sessionId) return;
  const key = sourcesKey(item);
  const have = sources.get(sessionId, item.itemId);
  if (!force && have && have.key === key && have.status !== 'error') return;
  sources.set(sessionId, item.itemId, { key, status: 'loading', data: have?.key === key ? have.data : undefined });
  try {
    const data = await transport.api.itemSources(item.itemId, sessionId);
    if (sources.get(sessionId, item.itemId)?.key !== key) return; // the item changed meanwhile
    sources.set(sessionId, item.itemId, { key, status: 'ready', data });
    if (data.reason === 'index-building' && (data.candidates ?? []).length === 0) {
      setTimeout(() => {
        const cur = app.session?.items.find((i) => i.itemId === item.itemId);
        if (app.activeSessionId !== sessionId || !cur) return;
        if (ui.selectedItemId === item.itemId) void loadSources(transport, cur, true);
        else sources.drop(sessionId, item.itemId); // fetch afresh when it is selected again
      }, INDEXING_RETRY_MS);
    }
  } catch (err) {
    if (sources.get(sessionId, item.itemId)?.key !== key) return;
    const message = err instanceof ApiError && err.status === 0 ? 'The FixThis app is not reachable.' : (err as Error).message;
    sources.set(sessionId, item.itemId, { key, status: 'error', error: message });
  }
}

/** Runs a change on one saved item of the active session and shows the item it returns. */
async function itemCall(what: string, fn: (sessionId: string) => Promise<{ item?: Item }>): Promise<void> {
  const sessionId = app.activeSessionId;
  if (!sessionId) return;
  try {
    const r = await fn(sessionId);
    app.replaceItem(sessionId, r.item);
  } catch (err) {
    report(err, what);
  }
}

export async function deleteSavedItem(transport: Transport, itemId: string): Promise<void> {
  const sessionId = app.activeSessionId;
  if (!sessionId) return;
  try {
    await transport.api.deleteItem(itemId, sessionId);
    app.removeItem(sessionId, itemId);
    if (ui.selectedItemId === itemId) ui.selectedItemId = '';
    app.notify('success', 'Annotation deleted. Its number is not reused.');
  } catch (err) {
    report(err, 'Could not delete the annotation');
  }
}

export const editSavedItem = (transport: Transport, itemId: string, patch: { comment?: string; severity?: Severity }) =>
  itemCall('Could not update the annotation', (sid) => transport.api.updateItem(itemId, sid, patch));

/**
 * Sends the user's typed answer. Whichever answer reaches the app first wins (a spoken
 * one through the interviewer, or another window's): a refused second answer says so
 * and shows the answer that won. Resolves true when this answer was recorded.
 */
export async function answerItem(transport: Transport, itemId: string, answer: string): Promise<boolean> {
  const sessionId = app.activeSessionId;
  if (!sessionId) return false;
  try {
    const r = await transport.api.answer(itemId, sessionId, answer);
    app.replaceItem(sessionId, r.item);
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.code === 'item_not_editable') {
      await transport.sync.reloadActiveSession().catch(() => undefined);
      const now = app.activeSessionId === sessionId ? app.session?.items.find((i) => i.itemId === itemId) : undefined;
      if (now?.userAnswer) {
        app.notify('error', answeredAlready(now.sequenceNumber, now.userAnswer), { detail: err.code });
        return false;
      }
    }
    report(err, 'Could not send the answer');
    return false;
  }
}

/** The refusal of a second answer, with the first one's words. */
export function answeredAlready(sequenceNumber: number, first: string): string {
  const words = first.length > 120 ? `${first.slice(0, 119)}…` : first;
  return `Your answer was not sent: the question on #${sequenceNumber} was already answered (by voice or in another window): “${words}”.`;
}

export const resolveItem = (transport: Transport, itemId: string, status: 'resolved' | 'wont_fix') =>
  itemCall('Could not resolve the annotation', (sid) => transport.api.resolve(itemId, sid, status));

export async function clearServerDraft(transport: Transport): Promise<void> {
  ui.dialog = null;
  const sessionId = app.activeSessionId;
  if (!sessionId) return;
  try {
    const r = await transport.api.clearDraft(sessionId);
    draft.close(true);
    ui.clearSelection();
    await transport.sync.reloadActiveSession();
    app.notify('success', `Draft cleared (${r.deleted ?? 0} saved draft annotation${r.deleted === 1 ? '' : 's'} deleted).`);
  } catch (err) {
    report(err, 'Could not clear the draft');
  }
}

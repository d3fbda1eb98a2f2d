// Pending work found in this browser (docs/console.md, "Recovery"): offered through the
// banner, never restored silently.
import { app } from '../features/session/state.svelte';
import { draft } from '../state/draft.svelte';
import { ui } from '../state/ui.svelte';
import { listWorkspaces, recoveryFor, removeWorkspace } from '../workspace';
import type { Transport } from '../transport';
import { recaptureDraft } from './save';

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

/** Takes the offered workspace back as the draft; the user's own draft is kept for later. */
function adoptOffered(): NonNullable<typeof ui.recovery> | null {
  const r = ui.recovery;
  if (!r || r.workspace.context.sessionId !== app.activeSessionId) return null;
  if (draft.dirty) draft.close(false);
  draft.adopt({ ...r.workspace, items: r.items });
  ui.recovery = null;
  return r;
}

export function recoverDraft(): void {
  if (!ui.recovery?.canRecover) return;
  const r = adoptOffered();
  if (!r) return;
  draft.persist();
  ui.clearSelection();
  ui.enterFrozen();
  app.notify('info', `Recovered ${r.items.length} pending annotation${r.items.length === 1 ? '' : 's'} on the frame you froze earlier.`);
}

export async function recaptureRecovery(transport: Transport): Promise<void> {
  if (!adoptOffered()) return;
  await recaptureDraft(transport);
}

export function discardRecovery(): void {
  const r = ui.recovery;
  if (!r) return;
  removeWorkspace(draft.storage, r.workspace.context.sessionId, r.workspace.workspaceId);
  ui.recovery = null;
  checkRecovery(r.workspace.context.sessionId, true);
}

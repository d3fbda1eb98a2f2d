// Check sizes on a saved item: the server shows each size on the selected phone, finds
// the item's element there, puts the phone back and answers with the item, which
// carries the check. A refusal (no phone, another app in front, a check already
// running) stays on the item's section until the next try.
import { ApiError } from '../../api';
import { app } from '../session/state.svelte';
import type { Transport } from '../../transport';
import { sizeRuns } from './state.svelte';

/** Check sizes. */
export async function checkSizes(transport: Transport, itemId: string): Promise<void> {
  const sessionId = app.activeSessionId;
  if (!sessionId || sizeRuns.get(sessionId, itemId)?.status === 'checking') return;
  sizeRuns.set(sessionId, itemId, { status: 'checking', startedAt: Date.now() });
  try {
    const r = await transport.api.checkSizes(itemId, sessionId);
    app.replaceItem(sessionId, r.item);
    sizeRuns.set(sessionId, itemId, undefined);
  } catch (err) {
    const error = err instanceof ApiError && err.status === 0 ? 'The FixThis app is not reachable.' : (err as Error).message;
    sizeRuns.set(sessionId, itemId, { status: 'error', startedAt: 0, error });
  }
}

// Capture diagnostics on a saved item: fetch its runtime evidence captures, or run a
// fresh one. Results are fenced by the item's session key in the evidence state.
import { ApiError } from '../api';
import { app } from '../features/session/state.svelte';
import { evidence } from '../state/evidence.svelte';
import type { Transport } from '../transport';

function errorText(err: unknown): string {
  return err instanceof ApiError && err.status === 0 ? 'The FixThis app is not reachable.' : (err as Error).message;
}

/** Fetches a saved item's captures (kept on screen while refreshing). */
export async function loadEvidence(transport: Transport, itemId: string): Promise<void> {
  const sessionId = app.activeSessionId;
  if (!sessionId) return;
  const have = evidence.get(sessionId, itemId);
  if (have?.status === 'collecting') return;
  evidence.set(sessionId, itemId, { status: 'loading', attempts: have?.attempts ?? [] });
  try {
    const doc = await transport.api.itemEvidence(itemId, sessionId);
    if (evidence.get(sessionId, itemId)?.status === 'collecting') return;
    evidence.set(sessionId, itemId, { status: 'ready', attempts: doc.attempts ?? [] });
  } catch (err) {
    evidence.set(sessionId, itemId, { status: 'error', attempts: have?.attempts ?? [], error: errorText(err) });
  }
}

/** Capture diagnostics / Capture again; `bodies` is the Network section's Capture with bodies. */
export async function collectEvidence(transport: Transport, itemId: string, bodies = false): Promise<void> {
  const sessionId = app.activeSessionId;
  if (!sessionId) return;
  const have = evidence.get(sessionId, itemId);
  if (have?.status === 'collecting') return;
  const before = have?.attempts ?? [];
  evidence.set(sessionId, itemId, { status: 'collecting', attempts: before });
  try {
    const rec = await transport.api.collectEvidence(itemId, bodies);
    evidence.set(sessionId, itemId, { status: 'ready', attempts: [rec, ...before] });
  } catch (err) {
    evidence.set(sessionId, itemId, { status: 'error', attempts: before, error: errorText(err) });
  }
}

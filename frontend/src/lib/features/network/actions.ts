// The Network section on a saved item: fetch the calls of its newest capture. Answers
// are kept per session and item, so one arriving after a switch lands where it belongs.
import { ApiError } from '../../api';
import { app } from '../session/state.svelte';
import type { Transport } from '../../transport';
import { networkCalls } from './state.svelte';

/** Fetches a saved item's calls (the last ones stay on screen while refreshing). */
export async function loadNetwork(transport: Transport, itemId: string): Promise<void> {
  const sessionId = app.activeSessionId;
  if (!sessionId) return;
  const have = networkCalls.get(sessionId, itemId);
  networkCalls.set(sessionId, itemId, { status: 'loading', doc: have?.doc });
  try {
    const doc = await transport.api.itemNetwork(itemId, sessionId);
    networkCalls.set(sessionId, itemId, { status: 'ready', doc });
  } catch (err) {
    const error = err instanceof ApiError && err.status === 0 ? 'The FixThis app is not reachable.' : (err as Error).message;
    networkCalls.set(sessionId, itemId, { status: 'error', doc: have?.doc, error });
  }
}

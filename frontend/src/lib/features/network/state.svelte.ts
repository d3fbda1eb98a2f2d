// The Network section's calls per saved item, as the last GET /api/items/{id}/network
// answered them.
import type { NetworkDoc } from '../../wire.gen';

/** One saved item's calls as the console knows them. */
export interface NetworkEntry {
  status: 'loading' | 'ready' | 'error';
  /** The last answer, kept on screen while a new one is fetched. */
  doc?: NetworkDoc;
  error?: string;
}

/** Calls per saved item, keyed by `${sessionId}/${itemId}`. */
export class NetworkState {
  entries = $state<Record<string, NetworkEntry>>({});

  get(sessionId: string, itemId: string): NetworkEntry | undefined {
    return this.entries[`${sessionId}/${itemId}`];
  }

  set(sessionId: string, itemId: string, entry: NetworkEntry): void {
    this.entries[`${sessionId}/${itemId}`] = entry;
  }
}

export const networkCalls = new NetworkState();

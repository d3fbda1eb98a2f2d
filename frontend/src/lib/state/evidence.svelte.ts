import type { EvidenceRecord } from '../wire.gen';

/** One saved item's runtime evidence as the console knows it. */
export interface EvidenceEntry {
  status: 'loading' | 'ready' | 'collecting' | 'error';
  /** Captures, newest first (the last ones fetched, kept while a new fetch runs). */
  attempts: EvidenceRecord[];
  error?: string;
}

/** Runtime evidence per saved item, keyed by `${sessionId}/${itemId}`. */
export class EvidenceState {
  entries = $state<Record<string, EvidenceEntry>>({});

  get(sessionId: string, itemId: string): EvidenceEntry | undefined {
    return this.entries[`${sessionId}/${itemId}`];
  }

  set(sessionId: string, itemId: string, entry: EvidenceEntry): void {
    this.entries[`${sessionId}/${itemId}`] = entry;
  }
}

export const evidence = new EvidenceState();

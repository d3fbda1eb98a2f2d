import type { SourcesEntry } from '../sources';

/** Source candidates per saved item, keyed by `${sessionId}/${itemId}`. */
export class SourcesState {
  entries = $state<Record<string, SourcesEntry>>({});

  get(sessionId: string, itemId: string): SourcesEntry | undefined {
    return this.entries[`${sessionId}/${itemId}`];
  }

  set(sessionId: string, itemId: string, entry: SourcesEntry): void {
    this.entries[`${sessionId}/${itemId}`] = entry;
  }

  drop(sessionId: string, itemId: string): void {
    delete this.entries[`${sessionId}/${itemId}`];
  }
}

export const sources = new SourcesState();

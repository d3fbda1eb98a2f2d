// Check sizes per saved item while it runs or after it failed; the check's results
// themselves live on the item (item.sizes), which the server sends like any change.
/** One item's Check sizes as the console knows it. */
export interface SizeRun {
  status: 'checking' | 'error';
  /** When the check started (ms since the epoch), for the progress line. */
  startedAt: number;
  error?: string;
}

/** Runs per saved item, keyed by `${sessionId}/${itemId}`. */
export class SizeRuns {
  runs = $state<Record<string, SizeRun>>({});

  get(sessionId: string, itemId: string): SizeRun | undefined {
    return this.runs[`${sessionId}/${itemId}`];
  }

  set(sessionId: string, itemId: string, run: SizeRun | undefined): void {
    const key = `${sessionId}/${itemId}`;
    if (run) this.runs[key] = run;
    else delete this.runs[key];
  }
}

export const sizeRuns = new SizeRuns();

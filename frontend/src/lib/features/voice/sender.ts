// Sends the microphone's chunks to the Go process, one request at a time: while a POST
// is in flight the next chunks queue, and the queue leaves as one request of at most
// maxBytes (the API takes 100-250 ms per request), so a slow round-trip batches audio
// instead of piling up requests. A backlog longer than maxBacklogBytes drops its oldest
// audio: late speech is worse for the interviewer than a gap.

export interface SenderOptions {
  /** The largest request body (250 ms of PCM16 at 24 kHz is 12,000 bytes). */
  maxBytes: number;
  /** Audio kept while the server is slow; older audio is dropped beyond it. */
  maxBacklogBytes: number;
  /** Posts one body; rejects when the server refused it. */
  post(body: Uint8Array): Promise<void>;
  /** A refused request (the chunk is dropped, sending goes on). */
  onError?(err: unknown): void;
}

export interface SenderStats {
  chunks: number;
  requests: number;
  bytesSent: number;
  droppedBytes: number;
  failures: number;
  /** Bytes per request and milliseconds between request starts, last 200 of each. */
  sizes: number[];
  intervals: number[];
}

const KEEP = 200;

export class AudioSender {
  private queue: Uint8Array[] = [];
  private queued = 0;
  private inFlight = false;
  private flight: Promise<void> | null = null;
  private closed = false;
  private lastStart = 0;
  readonly stats: SenderStats = { chunks: 0, requests: 0, bytesSent: 0, droppedBytes: 0, failures: 0, sizes: [], intervals: [] };

  constructor(
    private readonly opts: SenderOptions,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Queues one chunk and sends when nothing is in flight. */
  push(chunk: Uint8Array): void {
    if (this.closed || chunk.length === 0) return;
    this.stats.chunks++;
    this.queue.push(chunk);
    this.queued += chunk.length;
    while (this.queued > this.opts.maxBacklogBytes && this.queue.length > 1) {
      const old = this.queue.shift()!;
      this.queued -= old.length;
      this.stats.droppedBytes += old.length;
    }
    this.pump();
  }

  /**
   * Stops sending; queued audio is dropped, a request in flight finishes. The promise
   * settles when it has, so the voice session is not closed under it (its POST would
   * then be answered 404).
   */
  close(): Promise<void> {
    this.closed = true;
    this.queue = [];
    this.queued = 0;
    return this.flight ?? Promise.resolve();
  }

  get idle(): boolean {
    return !this.inFlight && this.queue.length === 0;
  }

  private take(): Uint8Array {
    const parts: Uint8Array[] = [];
    let n = 0;
    while (this.queue.length > 0 && (parts.length === 0 || n + this.queue[0].length <= this.opts.maxBytes)) {
      const c = this.queue.shift()!;
      parts.push(c);
      n += c.length;
    }
    this.queued -= n;
    if (parts.length === 1) return parts[0];
    const body = new Uint8Array(n);
    let off = 0;
    for (const p of parts) {
      body.set(p, off);
      off += p.length;
    }
    return body;
  }

  private pump(): void {
    if (this.inFlight || this.closed || this.queue.length === 0) return;
    const body = this.take();
    this.inFlight = true;
    const t = this.now();
    if (this.stats.requests > 0) keep(this.stats.intervals, t - this.lastStart);
    this.lastStart = t;
    this.stats.requests++;
    keep(this.stats.sizes, body.length);
    this.flight = this.opts
      .post(body)
      .then(
        () => {
          this.stats.bytesSent += body.length;
        },
        (err) => {
          this.stats.failures++;
          this.opts.onError?.(err);
        },
      )
      .finally(() => {
        this.inFlight = false;
        this.flight = null;
        this.pump();
      });
  }
}

function keep(list: number[], v: number): void {
  list.push(Math.round(v * 10) / 10);
  if (list.length > KEEP) list.shift();
}

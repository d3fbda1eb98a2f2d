// The software decoder's main-thread side, imported on demand: starts the tinyh264
// worker once and gives each stream a session on it. Decoding and the conversion to RGBA
// happen in the worker, so a busy decoder does not stall the console. One batch is in
// the worker at a time; access units that arrive meanwhile go in the next batch, of
// which the worker converts and paints only the last picture. A decoder slower than the
// stream then drops pictures instead of falling further and further behind.
import type { PictureSink, StreamDecoder } from './decoders';
import type { Crop } from './soft264';

export type Unit = { au: ArrayBuffer; arrivedUs: number };
export type ToWorker = { session: number; units: Unit[]; crop: Crop | null };
export type Painted = { width: number; height: number; arrivedUs: number; rgba: ArrayBuffer };
export type FromWorker =
  | { type: 'ready' }
  | { type: 'fatal'; message: string }
  /** A batch is done: its last picture, if any, or why it could not be decoded. */
  | { type: 'done'; session: number; picture: Painted | null; error: string };

/** How long tinyh264 may take to load and compile in its worker. */
const START_TIMEOUT_MS = 15_000;

export class SoftwareDecoder {
  /** '' once the worker has loaded tinyh264, else why it could not. */
  readonly ready: Promise<string>;
  private readonly worker: Worker;
  private sessions = new Map<number, Session>();
  private next = 0;

  constructor() {
    this.worker = new Worker(new URL('./tinyh264.worker.ts', import.meta.url), { type: 'module', name: 'tinyh264' });
    this.ready = new Promise((resolve) => {
      // A worker that never answers would leave the preview waiting for good.
      const late = setTimeout(() => resolve(`the software decoder did not start within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
      this.worker.addEventListener('error', (e) => {
        e.preventDefault();
        const why = e.message ? `: ${e.message}` : '';
        resolve(`the software decoder's worker did not start${why}`);
        // After the start, an error in the worker ends the streams it was decoding.
        for (const s of this.sessions.values()) s.failure ||= `the software decoder failed${why}`;
      });
      this.worker.addEventListener('message', (e: MessageEvent<FromWorker>) => {
        const msg = e.data;
        if (msg.type === 'ready' || msg.type === 'fatal') clearTimeout(late);
        if (msg.type === 'ready') resolve('');
        else if (msg.type === 'fatal') resolve(msg.message);
        else if (msg.type === 'done') this.sessions.get(msg.session)?.receive(msg);
      });
    });
  }

  /** A decoder for a new stream, starting from its next key frame. */
  open(codec: string, sink: PictureSink): StreamDecoder {
    const s = new Session(this.next++, codec, this.worker, sink, (id) => this.sessions.delete(id));
    this.sessions.set(s.id, s);
    return s;
  }
}

class Session implements StreamDecoder {
  readonly name: string;
  failure = '';

  constructor(
    readonly id: number,
    codec: string,
    private readonly worker: Worker,
    private readonly sink: PictureSink,
    private readonly closed: (id: number) => void,
  ) {
    this.name = `tinyh264 software decoder (WebAssembly, ${codec})`;
  }

  private queue: Unit[] = [];
  private crop: Crop | null = null;
  private busy = false;

  decode(au: Uint8Array, _key: boolean, arrivedUs: number, crop: Crop | null): void {
    // A copy the worker can own: au is a view into the stream parser's buffer.
    this.queue.push({ au: au.slice().buffer, arrivedUs });
    this.crop = crop;
    if (!this.busy) this.flush();
  }

  private flush(): void {
    if (!this.queue.length || this.failure) return;
    const units = this.queue.splice(0);
    this.busy = true;
    this.worker.postMessage({ session: this.id, units, crop: this.crop } satisfies ToWorker, units.map((u) => u.au));
  }

  receive(msg: FromWorker): void {
    if (msg.type !== 'done') return;
    this.busy = false;
    if (msg.error) this.failure = msg.error;
    const p = msg.picture;
    if (p) this.sink({ kind: 'rgba', image: new ImageData(new Uint8ClampedArray(p.rgba), p.width, p.height) }, p.arrivedUs);
    this.flush();
  }

  close(): void {
    this.closed(this.id);
  }
}

// The software decoder's main-thread side, imported on demand: starts the tinyh264
// worker once and gives each stream a session on it. Decoding and the conversion to RGBA
// happen in the worker, so a busy decoder does not stall the console.
import type { PictureSink, StreamDecoder } from './decoders';
import type { Crop } from './soft264';

export type ToWorker = { session: number; au: ArrayBuffer; arrivedUs: number; crop: Crop | null };
export type FromWorker =
  | { type: 'ready' }
  | { type: 'fatal'; message: string }
  | { type: 'error'; session: number; message: string }
  | { type: 'picture'; session: number; width: number; height: number; arrivedUs: number; rgba: ArrayBuffer };

export class SoftwareDecoder {
  /** '' once the worker has loaded tinyh264, else why it could not. */
  readonly ready: Promise<string>;
  private readonly worker: Worker;
  private sessions = new Map<number, Session>();
  private next = 0;

  constructor() {
    this.worker = new Worker(new URL('./tinyh264.worker.ts', import.meta.url), { type: 'module', name: 'tinyh264' });
    this.ready = new Promise((resolve) => {
      this.worker.addEventListener('error', (e) => {
        e.preventDefault();
        resolve(`the software decoder's worker did not start${e.message ? `: ${e.message}` : ''}`);
      });
      this.worker.addEventListener('message', (e: MessageEvent<FromWorker>) => {
        const msg = e.data;
        if (msg.type === 'ready') resolve('');
        else if (msg.type === 'fatal') resolve(msg.message);
        else this.sessions.get(msg.session)?.receive(msg);
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

  decode(au: Uint8Array, _key: boolean, arrivedUs: number, crop: Crop | null): void {
    // A copy the worker can own: au is a view into the stream parser's buffer.
    const copy = au.slice().buffer;
    this.worker.postMessage({ session: this.id, au: copy, arrivedUs, crop } satisfies ToWorker, [copy]);
  }

  receive(msg: FromWorker): void {
    if (msg.type === 'error') this.failure = msg.message;
    else if (msg.type === 'picture') {
      this.sink({ kind: 'rgba', image: new ImageData(new Uint8ClampedArray(msg.rgba), msg.width, msg.height) }, msg.arrivedUs);
    }
  }

  close(): void {
    this.closed(this.id);
  }
}

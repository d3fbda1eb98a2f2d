// The software decoder's worker: decodes access units with tinyh264 off the main thread
// and posts each picture back as RGBA, already cropped to the device's display. Vite
// builds it as its own file, fetched only when the console needs the software decoder.
// The WebAssembly module is inlined in tinyh264 as a data: URL, so the worker needs no
// other request; a Content-Security-Policy would have to allow 'wasm-unsafe-eval' and
// worker-src 'self'.
import TinyH264 from 'tinyh264/es/TinyH264.js';
import { clampCrop, i420ToRGBA, SoftH264, type Picture } from './soft264';
import type { FromWorker, Painted, ToWorker } from './software';

const scope = self as unknown as {
  postMessage(msg: FromWorker, transfer?: Transferable[]): void;
  addEventListener(type: 'message', fn: (e: MessageEvent<ToWorker>) => void): void;
};
const post = (msg: FromWorker, transfer: Transferable[] = []) => scope.postMessage(msg, transfer);

let decoder: SoftH264 | null = null;
let session = -1;
const early: ToWorker[] = [];

function handle(msg: ToWorker): void {
  if (!decoder) {
    early.push(msg);
    return;
  }
  if (msg.session !== session) {
    // A new stream: forget the old one's parameter sets and reference pictures.
    if (session !== -1) decoder.reset();
    session = msg.session;
  }
  let pic: Picture | null = null;
  let arrivedUs = 0;
  let error = '';
  for (const u of msg.units) {
    try {
      const p = decoder.decode(new Uint8Array(u.au));
      if (p) [pic, arrivedUs] = [p, u.arrivedUs];
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
      break;
    }
  }
  let picture: Painted | null = null;
  if (pic) {
    // Only the batch's last picture is converted: the ones before it are already late.
    const crop = clampCrop(pic, msg.crop);
    const rgba = i420ToRGBA(pic, crop);
    picture = { width: crop.width, height: crop.height, arrivedUs, rgba: rgba.buffer as ArrayBuffer };
  }
  post({ type: 'done', session: msg.session, picture, error }, picture ? [picture.rgba] : []);
}

scope.addEventListener('message', (e) => handle(e.data));

TinyH264().then(
  (m) => {
    decoder = new SoftH264(m);
    post({ type: 'ready' });
    for (const msg of early.splice(0)) handle(msg);
  },
  (err: unknown) => post({ type: 'fatal', message: `tinyh264 did not load: ${err instanceof Error ? err.message : String(err)}` }),
);

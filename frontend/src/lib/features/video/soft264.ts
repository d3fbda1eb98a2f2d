// The software H.264 decoder: tinyh264 (h264bsd compiled to WebAssembly) called
// directly, and the conversion of its I420 pictures to RGBA. It runs in the decoder
// worker (tinyh264.worker.ts); it has no DOM, so unit tests run it under Node.
//
// Why tinyh264 itself rather than @yume-chan/scrcpy-decoder-tinyh264: the wrapper adds
// the scrcpy protocol packages (several MB installed) to feed scrcpy's packet stream,
// paints through yuv-canvas, which sizes the canvas to the whole video and takes a WebGL
// context on it (the stage crops to the device's display and draws with a 2D context),
// and it uses tinyh264's stock glue, which copies every access unit into a fixed 1 MB
// buffer: an I_PCM key frame of a stage-sized picture is larger than that. So this file
// keeps its own input buffer, grown to fit, and crops while converting to RGBA.
import type { TinyH264Module } from 'tinyh264/es/TinyH264.js';

/** h264bsdDecode's result when a picture is complete. */
const PIC_RDY = 1;
/** Errors: ERROR, PARAM_SET_ERROR, MEMALLOC_ERROR. */
const FIRST_ERROR = 3;

/** A decoded picture: I420 planes, width×height luma then two half-size chroma planes. */
export interface Picture {
  width: number;
  height: number;
  readonly yuv: Uint8Array;
}

export interface Crop {
  x: number;
  y: number;
  width: number;
  height: number;
}

export class SoftH264 {
  private storage: number;
  private readonly pWidth: number;
  private readonly pHeight: number;
  private readonly pPicture: number;
  private input = 0;
  private inputSize = 0;

  constructor(private readonly m: TinyH264Module) {
    this.storage = m._h264bsdAlloc();
    // Output each picture as soon as it is decoded: Baseline has no B pictures, so
    // holding pictures back for reordering would only add a frame of latency.
    m._h264bsdInit(this.storage, 1);
    this.pWidth = m._malloc(4);
    this.pHeight = m._malloc(4);
    this.pPicture = m._malloc(4);
  }

  /** Forgets the stream (a new one starts with its own SPS/PPS and key frame). */
  reset(): void {
    this.m._h264bsdShutdown(this.storage);
    this.m._h264bsdInit(this.storage, 1);
  }

  /**
   * Decodes one access unit. Returns its picture (in the decoder's memory, valid until
   * the next picture is decoded), null when the unit completed no picture, and throws
   * when the data is not decodable.
   */
  decode(au: Uint8Array): Picture | null {
    const m = this.m;
    if (au.length > this.inputSize) {
      if (this.input) m._free(this.input);
      this.inputSize = Math.max(au.length, this.inputSize * 2, 1 << 20);
      this.input = m._malloc(this.inputSize);
      if (!this.input) throw new Error('out of memory for the access unit');
    }
    m.HEAPU8.set(au, this.input);
    const rc = m._h264bsdDecode(this.storage, this.input, au.length, this.pPicture, this.pWidth, this.pHeight);
    if (rc >= FIRST_ERROR) throw new Error(`h264bsd could not decode the picture (code ${rc})`);
    if (rc !== PIC_RDY) return null;
    const width = m.getValue(this.pWidth, 'i32');
    const height = m.getValue(this.pHeight, 'i32');
    const at = m.getValue(this.pPicture, 'i32') >>> 0;
    return {
      width,
      height,
      // Looked up on each read: a later decode that grows the heap replaces HEAPU8.
      get yuv() {
        return m.HEAPU8.subarray(at, at + (width * height * 3) / 2);
      },
    };
  }

  release(): void {
    const m = this.m;
    if (!this.storage) return;
    m._h264bsdShutdown(this.storage);
    m._h264bsdFree(this.storage);
    for (const p of [this.pWidth, this.pHeight, this.pPicture, this.input]) if (p) m._free(p);
    this.storage = 0;
  }
}

/** The crop, clamped to the picture; an empty crop means the whole picture. */
export function clampCrop(pic: { width: number; height: number }, crop: Crop | null): Crop {
  if (!crop || crop.width <= 0 || crop.height <= 0) return { x: 0, y: 0, width: pic.width, height: pic.height };
  const x = Math.min(Math.max(0, Math.floor(crop.x)), pic.width - 1);
  const y = Math.min(Math.max(0, Math.floor(crop.y)), pic.height - 1);
  return { x, y, width: Math.min(Math.floor(crop.width), pic.width - x), height: Math.min(Math.floor(crop.height), pic.height - y) };
}

/**
 * Converts the crop of an I420 picture to RGBA with the BT.601 limited-range matrix,
 * what the stream's VUI declares and what the browsers' decoders assume by default.
 * Only the crop is converted: the letterbox around the display costs nothing. Pixels go
 * in pairs that share their chroma sample, which halves the chroma work.
 */
export function i420ToRGBA(pic: Picture, c: Crop, out = new Uint8ClampedArray(c.width * c.height * 4)): Uint8ClampedArray {
  const { width: w, height: h, yuv } = pic;
  const cw = w >> 1;
  const uBase = w * h;
  const vBase = uBase + cw * (h >> 1);
  const end = c.x + c.width;
  let o = 0;
  for (let y = c.y; y < c.y + c.height; y++) {
    const yRow = y * w;
    const uRow = uBase + (y >> 1) * cw;
    const vRow = vBase + (y >> 1) * cw;
    for (let x = c.x; x < end; ) {
      const d = yuv[uRow + (x >> 1)] - 128;
      const e = yuv[vRow + (x >> 1)] - 128;
      const r = 409 * e + 128;
      const g = 128 - 100 * d - 208 * e;
      const b = 516 * d + 128;
      // An odd x starts mid-pair, and an odd end stops mid-pair: one pixel then.
      const n = x & 1 || x + 1 === end ? 1 : 2;
      for (let k = 0; k < n; k++, x++, o += 4) {
        const l = 298 * (yuv[yRow + x] - 16);
        out[o] = (l + r) >> 8;
        out[o + 1] = (l + g) >> 8;
        out[o + 2] = (l + b) >> 8;
        out[o + 3] = 255;
      }
    }
  }
  return out;
}

import { beforeAll, describe, expect, it } from 'vitest';
import type { TinyH264Module } from 'tinyh264/es/TinyH264.js';
import { clampCrop, i420ToRGBA, SoftH264, type Picture } from './soft264';
import idrURL from './testdata/idr.h264?inline';
import pURL from './testdata/p.h264?inline';

/** The fixtures arrive as data: URLs (the console's tests have no Node types). */
const bytes = (url: string) => Uint8Array.from(atob(url.slice(url.indexOf(',') + 1)), (c) => c.charCodeAt(0));
const fixtures: Record<string, Uint8Array> = { 'idr.h264': bytes(idrURL), 'p.h264': bytes(pURL) };
const fixture = (name: string) => fixtures[name];

/** The RGB at (x, y) of an RGBA buffer width pixels wide. */
function rgb(rgba: Uint8ClampedArray, width: number, x: number, y: number): number[] {
  const i = (y * width + x) * 4;
  return [rgba[i], rgba[i + 1], rgba[i + 2]];
}

function near(got: number[], want: number[]): void {
  got.forEach((v, i) => expect(Math.abs(v - want[i]), `${got} vs ${want}`).toBeLessThanOrEqual(3));
}

let tiny: TinyH264Module;
beforeAll(async () => {
  // tinyh264 is built for a worker and reads self.location for its base URL.
  (globalThis as { self?: unknown }).self ??= { location: { href: import.meta.url } };
  tiny = await (await import('tinyh264/es/TinyH264.js')).default();
});

describe('SoftH264', () => {
  it('decodes the encoder’s key frame and P frame to the right colours', () => {
    const d = new SoftH264(tiny);
    const key = d.decode(fixture('idr.h264'));
    expect(key && [key.width, key.height]).toEqual([48, 32]);
    const a = i420ToRGBA(key as Picture, clampCrop(key as Picture, null));
    near(rgb(a, 48, 5, 5), [200, 30, 30]);
    near(rgb(a, 48, 40, 20), [30, 60, 200]);
    const p = d.decode(fixture('p.h264'));
    const b = i420ToRGBA(p as Picture, clampCrop(p as Picture, null));
    near(rgb(b, 48, 40, 20), [240, 220, 40]);
    near(rgb(b, 48, 40, 5), [30, 60, 200]); // skipped: still the key frame's blue
    near(rgb(b, 48, 5, 20), [200, 30, 30]);
    d.release();
  });

  it('starts over after reset, and rejects a P frame with no key frame before it', () => {
    const d = new SoftH264(tiny);
    d.decode(fixture('idr.h264'));
    d.reset();
    expect(() => d.decode(fixture('p.h264'))).toThrow(/could not decode/);
    d.reset();
    expect(d.decode(fixture('idr.h264'))?.width).toBe(48);
    d.release();
  });

  it('decodes access units larger than tinyh264’s own 1 MB input buffer', () => {
    const d = new SoftH264(tiny);
    // Filler NAL units (type 12) before the key frame: 1.5 MB the decoder skips.
    const filler = new Uint8Array(1_500_000).fill(0xff);
    filler.set([0, 0, 0, 1, 12]);
    filler[filler.length - 1] = 0x80;
    const au = new Uint8Array(filler.length + fixture('idr.h264').length);
    au.set(filler);
    au.set(fixture('idr.h264'), filler.length);
    expect(d.decode(au)?.height).toBe(32);
    d.release();
  });
});

describe('i420ToRGBA', () => {
  it('converts only the crop', () => {
    const d = new SoftH264(tiny);
    const pic = d.decode(fixture('idr.h264')) as Picture;
    const crop = clampCrop(pic, { x: 20, y: 0, width: 8, height: 32 });
    const out = i420ToRGBA(pic, crop);
    expect(out.length).toBe(8 * 32 * 4);
    near(rgb(out, 8, 0, 0), [200, 30, 30]);
    near(rgb(out, 8, 7, 31), [30, 60, 200]);
    d.release();
  });

  it('matches the per-pixel BT.601 formula for crops that start and end mid-pair', () => {
    const w = 8;
    const h = 4;
    // Luma ramps, and each chroma sample differs, so a pair mix-up shows.
    const yuv = Uint8Array.from({ length: (w * h * 3) / 2 }, (_, i) => (i < w * h ? 16 + i * 6 : 40 + (i - w * h) * 11));
    const pic = { width: w, height: h, yuv };
    const crop = { x: 1, y: 1, width: 5, height: 3 };
    const out = i420ToRGBA(pic, crop);
    const clamp = (v: number) => Math.max(0, Math.min(255, v));
    for (let y = crop.y; y < crop.y + crop.height; y++) {
      for (let x = crop.x; x < crop.x + crop.width; x++) {
        const c = 298 * (yuv[y * w + x] - 16);
        const d = yuv[w * h + (y >> 1) * (w / 2) + (x >> 1)] - 128;
        const e = yuv[w * h + (w / 2) * (h / 2) + (y >> 1) * (w / 2) + (x >> 1)] - 128;
        const want = [(c + 409 * e + 128) >> 8, (c - 100 * d - 208 * e + 128) >> 8, (c + 516 * d + 128) >> 8].map(clamp);
        expect(rgb(out, crop.width, x - crop.x, y - crop.y), `pixel ${x},${y}`).toEqual(want);
      }
    }
  });
});

describe('clampCrop', () => {
  it('keeps the crop inside the picture', () => {
    const pic = { width: 48, height: 32 };
    expect(clampCrop(pic, { x: 40, y: -4, width: 20, height: 40 })).toEqual({ x: 40, y: 0, width: 8, height: 32 });
    expect(clampCrop(pic, { x: 0, y: 0, width: 0, height: 0 })).toEqual({ x: 0, y: 0, width: 48, height: 32 });
  });
});

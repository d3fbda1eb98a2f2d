import { describe, expect, it } from 'vitest';
import { Chunker, Resampler, bytesToPcm16, downmix, floatToPcm16, pcm16Bytes, pcm16ToFloat, rms, samplesFor } from './pcm';

function sine(rate: number, hz: number, seconds: number, amp = 0.5): Float32Array {
  const n = Math.round(rate * seconds);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = amp * Math.sin((2 * Math.PI * hz * i) / rate);
  return out;
}

/** Runs a resampler over the input cut into blocks of `block` frames, as a worklet does. */
function run(r: Resampler, input: Float32Array, block = 128): Float32Array {
  const parts: Float32Array[] = [];
  for (let i = 0; i < input.length; i += block) parts.push(r.process(input.subarray(i, i + block)));
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

/** The amplitude of `hz` in x (a single-bin DFT), as a fraction of full scale. */
function toneAmplitude(x: Float32Array, rate: number, hz: number): number {
  let re = 0;
  let im = 0;
  for (let i = 0; i < x.length; i++) {
    re += x[i] * Math.cos((2 * Math.PI * hz * i) / rate);
    im -= x[i] * Math.sin((2 * Math.PI * hz * i) / rate);
  }
  return (2 * Math.hypot(re, im)) / x.length;
}

describe('Resampler', () => {
  it.each([
    [48000, 1],
    [44100, 1],
    [16000, 1],
    [24000, 1],
    [48000, 7],
    [44100, 333],
  ])('turns one second at %i Hz (blocks of %i) into one second at 24 kHz', (rate, block) => {
    const out = run(new Resampler(rate), sine(rate, 440, 1), block === 1 ? 128 : block);
    // The last input samples wait for the next block: at most one output sample short.
    expect(out.length).toBeGreaterThanOrEqual(23999);
    expect(out.length).toBeLessThanOrEqual(24000);
  });

  it('gives the same output however the input is cut', () => {
    const input = sine(44100, 300, 0.5);
    const a = run(new Resampler(44100), input, 128);
    const b = run(new Resampler(44100), input, 97);
    const c = new Resampler(44100).process(input);
    expect(b.length).toBe(a.length);
    expect(c.length).toBe(a.length);
    let worst = 0;
    for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(b[i] - a[i]), Math.abs(c[i] - a[i]));
    expect(worst).toBeLessThan(1e-6);
  });

  it.each([48000, 44100, 16000])('keeps a 440 Hz tone at %i Hz at its pitch and level', (rate) => {
    const out = run(new Resampler(rate), sine(rate, 440, 1, 0.5));
    expect(toneAmplitude(out, 24000, 440)).toBeCloseTo(0.5, 1);
    // and nothing at a neighbouring frequency
    expect(toneAmplitude(out, 24000, 620)).toBeLessThan(0.02);
  });

  it('damps what 24 kHz cannot carry (a 20 kHz tone at 48 kHz)', () => {
    const out = run(new Resampler(48000), sine(48000, 20000, 0.5, 0.5));
    // Pairs averaged: 0.5 * cos(pi * 20000 / 48000) ~ 0.13 of the input, folded to 4 kHz.
    expect(toneAmplitude(out, 24000, 4000)).toBeLessThan(0.5 * 0.3);
  });

  it('passes 24 kHz through unchanged', () => {
    const input = sine(24000, 1000, 0.01);
    expect(Array.from(new Resampler(24000).process(input))).toEqual(Array.from(input));
  });

  it('refuses a rate of zero', () => {
    expect(() => new Resampler(0)).toThrow(/positive/);
  });
});

describe('PCM16', () => {
  it('maps floats to 16-bit samples, clipping outside [-1, 1]', () => {
    expect(Array.from(floatToPcm16(Float32Array.from([0, 1, -1, 0.5, -0.5, 2, -3])))).toEqual([0, 32767, -32768, 16384, -16384, 32767, -32768]);
  });

  it('writes little-endian bytes and reads them back', () => {
    const p = Int16Array.from([1, -2, 0x1234, -32768, 32767]);
    const b = pcm16Bytes(p);
    expect(Array.from(b.subarray(0, 6))).toEqual([0x01, 0x00, 0xfe, 0xff, 0x34, 0x12]);
    expect(Array.from(bytesToPcm16(b))).toEqual(Array.from(p));
    expect(bytesToPcm16(Uint8Array.from([1, 0, 7])).length).toBe(1); // an odd byte is dropped
  });

  it('round-trips floats within one step', () => {
    const f = Float32Array.from([0.25, -0.75, 0.999]);
    const back = pcm16ToFloat(floatToPcm16(f));
    for (let i = 0; i < f.length; i++) expect(Math.abs(back[i] - f[i])).toBeLessThan(1 / 16384);
  });

  it('measures level as RMS of full scale', () => {
    expect(rms(floatToPcm16(sine(24000, 500, 1, 0.5)))).toBeCloseTo(0.5 / Math.SQRT2, 3);
    expect(rms(new Int16Array(0))).toBe(0);
  });

  it('downmixes channels to their mean', () => {
    expect(Array.from(downmix([Float32Array.from([1, 0]), Float32Array.from([0, -1])]))).toEqual([0.5, -0.5]);
  });
});

describe('Chunker', () => {
  it('cuts any stream into chunks of exactly the size, in order', () => {
    const c = new Chunker(samplesFor(100));
    expect(c.size).toBe(2400);
    const all: Int16Array[] = [];
    let next = 0;
    // 128-frame worklet blocks resampled 48k->24k arrive as 64 samples each
    for (let block = 0; block < 200; block++) {
      const s = new Int16Array(64);
      for (let i = 0; i < 64; i++) s[i] = (next++ % 30000) as number;
      all.push(...c.push(s));
    }
    expect(all).toHaveLength(Math.floor((200 * 64) / 2400));
    expect(all.every((ch) => ch.length === 2400)).toBe(true);
    expect(all[1][0]).toBe(2400);
    expect(c.flush().length).toBe((200 * 64) % 2400);
    expect(c.flush().length).toBe(0);
  });

  it('returns several chunks from one long push', () => {
    const chunks = new Chunker(4).push(Int16Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9]));
    expect(chunks.map((c) => Array.from(c))).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
    ]);
  });

  it('refuses a size that is not a positive integer', () => {
    expect(() => new Chunker(0)).toThrow();
    expect(() => new Chunker(2.5)).toThrow();
  });
});

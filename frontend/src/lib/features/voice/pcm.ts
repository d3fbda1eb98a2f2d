// The microphone's samples on their way to the interviewer: mono floats at the audio
// context's rate -> 24 kHz -> PCM16 little-endian -> fixed-size chunks. Pure code, shared
// by the capture worklet (capture.worklet.ts) and the reply player (player.ts), tested
// under Node.

/** The rate the Realtime API takes: PCM16 mono at 24 kHz. */
export const VOICE_RATE = 24000;

/**
 * A streaming resampler: feed it blocks as they come (128 frames per AudioWorklet
 * call), it returns what is ready and keeps the rest for the next block, so cutting the
 * input differently never changes the output. Downsampling averages the input samples
 * each output sample covers (a box filter, which keeps speech and takes most of the
 * aliasing out); upsampling interpolates linearly.
 */
export class Resampler {
  private readonly inR: number;
  private readonly outR: number;
  private rest: Float32Array = new Float32Array(0);
  /** The absolute input index of rest[0]. */
  private base = 0;
  /** The next output sample's index. Output k starts at input k * inRate / outRate. */
  private k = 0;

  constructor(
    readonly inRate: number,
    readonly outRate: number = VOICE_RATE,
  ) {
    if (!(inRate > 0) || !(outRate > 0)) throw new Error(`resampler: rates must be positive (got ${inRate} -> ${outRate})`);
    // Integer positions (k * inR / outR with exact integer products) keep the output the
    // same however the input is cut: a float position would drift differently per cut.
    this.inR = Math.round(inRate);
    this.outR = Math.round(outRate);
  }

  process(input: Float32Array): Float32Array {
    if (this.inR === this.outR) return input.slice();
    const buf = new Float32Array(this.rest.length + input.length);
    buf.set(this.rest);
    buf.set(input, this.rest.length);
    const end = this.base + buf.length;
    const { inR, outR, base } = this;
    const out: number[] = [];
    let k = this.k;
    if (inR > outR) {
      for (;;) {
        const s = Math.floor((k * inR) / outR);
        const e = Math.floor(((k + 1) * inR) / outR);
        if (e > end) break;
        let sum = 0;
        for (let i = s; i < e; i++) sum += buf[i - base];
        out.push(sum / (e - s));
        k++;
      }
    } else {
      for (;;) {
        const i = Math.floor((k * inR) / outR);
        if (i + 1 >= end) break;
        const f = ((k * inR) % outR) / outR;
        out.push(buf[i - base] * (1 - f) + buf[i + 1 - base] * f);
        k++;
      }
    }
    this.k = k;
    const keep = Math.min(end, Math.floor((k * inR) / outR));
    this.rest = buf.slice(keep - base);
    this.base = keep;
    return Float32Array.from(out);
  }
}

/** Floats in [-1, 1] (clipped outside) to signed 16-bit samples. */
export function floatToPcm16(f: Float32Array): Int16Array {
  const out = new Int16Array(f.length);
  for (let i = 0; i < f.length; i++) {
    const s = Math.max(-1, Math.min(1, f[i]));
    out[i] = s < 0 ? Math.round(s * 0x8000) : Math.round(s * 0x7fff);
  }
  return out;
}

/** Signed 16-bit samples to floats in [-1, 1). */
export function pcm16ToFloat(p: Int16Array): Float32Array {
  const out = new Float32Array(p.length);
  for (let i = 0; i < p.length; i++) out[i] = p[i] / 0x8000;
  return out;
}

/** PCM16 samples as little-endian bytes, whatever the machine's byte order. */
export function pcm16Bytes(p: Int16Array): Uint8Array {
  const out = new Uint8Array(p.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < p.length; i++) view.setInt16(i * 2, p[i], true);
  return out;
}

/** Little-endian PCM16 bytes (an odd trailing byte is dropped) to samples. */
export function bytesToPcm16(b: Uint8Array): Int16Array {
  const n = b.length >> 1;
  const out = new Int16Array(n);
  const view = new DataView(b.buffer, b.byteOffset, n * 2);
  for (let i = 0; i < n; i++) out[i] = view.getInt16(i * 2, true);
  return out;
}

/** Cuts a stream of samples into chunks of exactly `size` samples. */
export class Chunker {
  private buf: Int16Array;
  private fill = 0;

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size <= 0) throw new Error(`chunker: size must be a positive integer (got ${size})`);
    this.buf = new Int16Array(size);
  }

  /** Adds samples; returns the chunks that are now complete, oldest first. */
  push(samples: Int16Array): Int16Array[] {
    const done: Int16Array[] = [];
    let i = 0;
    while (i < samples.length) {
      const n = Math.min(this.size - this.fill, samples.length - i);
      this.buf.set(samples.subarray(i, i + n), this.fill);
      this.fill += n;
      i += n;
      if (this.fill === this.size) {
        done.push(this.buf);
        this.buf = new Int16Array(this.size);
        this.fill = 0;
      }
    }
    return done;
  }

  /** What is left (shorter than a chunk), and starts over. */
  flush(): Int16Array {
    const rest = this.buf.slice(0, this.fill);
    this.fill = 0;
    return rest;
  }
}

/** Samples in a chunk of `ms` milliseconds at the voice rate. */
export function samplesFor(ms: number, rate: number = VOICE_RATE): number {
  return Math.round((rate * ms) / 1000);
}

/** Mono from the channels of one AudioWorklet input (their mean). */
export function downmix(channels: Float32Array[]): Float32Array {
  if (channels.length === 1) return channels[0];
  const n = channels[0]?.length ?? 0;
  const out = new Float32Array(n);
  for (const ch of channels) for (let i = 0; i < n; i++) out[i] += ch[i];
  for (let i = 0; i < n; i++) out[i] /= channels.length;
  return out;
}

/** Root mean square of PCM16 samples, as a fraction of full scale. */
export function rms(p: Int16Array): number {
  if (p.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < p.length; i++) sum += (p[i] / 0x8000) ** 2;
  return Math.sqrt(sum / p.length);
}

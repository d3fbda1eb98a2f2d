// The interviewer's voice: voice-audio events carry base64 PCM16 mono 24 kHz, which
// play back to back through Web Audio. Stopping (the user starts talking, Spoken
// replies off, Talk off) cancels what is scheduled.
import { VOICE_RATE, bytesToPcm16, pcm16ToFloat } from './pcm';

/** base64 PCM16LE to samples. */
export function decodeBase64Pcm(b64: string): Int16Array {
  const bin = atob(b64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytesToPcm16(bytes);
}

/**
 * When the next piece starts, in context seconds: right after the last one, or a
 * little after now when playback ran dry (a gap is better than a click).
 */
export function nextStart(now: number, scheduledEnd: number, lead = 0.05): number {
  return scheduledEnd > now ? scheduledEnd : now + lead;
}

export class ReplyPlayer {
  private ctx: AudioContext | null = null;
  private end = 0;
  private sources = new Set<AudioBufferSourceNode>();

  /** Creates the output context; call it from a user gesture so it may start. */
  prepare(): void {
    if (this.ctx) return;
    try {
      this.ctx = new AudioContext({ sampleRate: VOICE_RATE });
    } catch {
      this.ctx = new AudioContext(); // the buffer's own rate is resampled on playback
    }
    void this.ctx.resume().catch(() => {});
  }

  play(b64: string): void {
    if (!this.ctx) this.prepare();
    const ctx = this.ctx!;
    const samples = pcm16ToFloat(decodeBase64Pcm(b64));
    if (samples.length === 0) return;
    const buf = ctx.createBuffer(1, samples.length, VOICE_RATE);
    buf.copyToChannel(samples as Float32Array<ArrayBuffer>, 0);
    const src = ctx.createBufferSource();
    src.buffer = buf;
    src.connect(ctx.destination);
    const at = nextStart(ctx.currentTime, this.end);
    src.start(at);
    this.end = at + buf.duration;
    this.sources.add(src);
    src.onended = () => this.sources.delete(src);
  }

  get playing(): boolean {
    return this.sources.size > 0;
  }

  /** Cancels everything scheduled. */
  stop(): void {
    for (const s of this.sources) {
      try {
        s.stop();
      } catch {
        // already ended
      }
    }
    this.sources.clear();
    this.end = 0;
  }

  close(): void {
    this.stop();
    void this.ctx?.close().catch(() => {});
    this.ctx = null;
  }
}

// The microphone's AudioWorklet: downmixes each 128-frame block to mono, resamples it
// from the context's rate to 24 kHz, converts it to PCM16 and posts chunks of a fixed
// length (processorOptions.chunkMs) to the page, transferring their buffers. Loaded by
// capture.ts through Vite's `?worker&url`, so it is bundled with pcm.ts.
import { Chunker, Resampler, VOICE_RATE, downmix, floatToPcm16, pcm16Bytes, samplesFor } from './pcm';

// The AudioWorkletGlobalScope's names, which TypeScript's DOM library does not describe.
declare const sampleRate: number;
declare class AudioWorkletProcessor {
  readonly port: MessagePort;
  constructor(options?: { processorOptions?: unknown });
}
declare function registerProcessor(name: string, ctor: new (options: { processorOptions?: unknown }) => AudioWorkletProcessor): void;

/** What the processor posts: one chunk of little-endian PCM16 samples, and its index. */
export interface CaptureChunk {
  seq: number;
  pcm: ArrayBuffer;
}

class CaptureProcessor extends AudioWorkletProcessor {
  private readonly resampler: Resampler;
  private readonly chunker: Chunker;
  private seq = 0;

  constructor(options: { processorOptions?: unknown }) {
    super(options);
    const opts = (options.processorOptions ?? {}) as { chunkMs?: number };
    this.resampler = new Resampler(sampleRate, VOICE_RATE);
    this.chunker = new Chunker(samplesFor(opts.chunkMs ?? 100));
  }

  process(inputs: Float32Array[][]): boolean {
    const channels = inputs[0];
    if (!channels || channels.length === 0 || channels[0].length === 0) return true;
    const pcm = floatToPcm16(this.resampler.process(downmix(channels)));
    for (const c of this.chunker.push(pcm)) {
      const msg: CaptureChunk = { seq: this.seq++, pcm: pcm16Bytes(c).buffer as ArrayBuffer };
      this.port.postMessage(msg, [msg.pcm]);
    }
    return true;
  }
}

registerProcessor('fixthis-capture', CaptureProcessor);

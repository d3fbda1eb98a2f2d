// The preview's decoders behind one interface: WebCodecs' VideoDecoder here, and the
// software decoder in software.ts, which the player imports only when it needs it.
import type { DecoderSupport } from './choose';
import type { Crop } from './soft264';

/** A decoded picture, ready for the stage's canvas. */
export type Decoded =
  | { kind: 'frame'; frame: VideoFrame }
  /** Already cropped to the device's display. */
  | { kind: 'rgba'; image: ImageData };

export type PictureSink = (pic: Decoded, arrivedUs: number) => void;

/** One stream's decoder. */
export interface StreamDecoder {
  /** What previewStats() reports as the decoder. */
  readonly name: string;
  /** Why decoding failed ('' while it works): the stream then ends and reopens. */
  readonly failure: string;
  /** Decodes one access unit; crop is the device's display inside the picture. */
  decode(au: Uint8Array, key: boolean, arrivedUs: number, crop: Crop | null): void;
  close(): void;
}

/** Constrained Baseline, level 3.1: what screenrecord streams at preview sizes. */
const PROBE_CODEC = 'avc1.42E01F';

/** What this browser can use, before any stream is opened. */
export async function probeSupport(): Promise<DecoderSupport> {
  let webcodecs = '';
  if (typeof VideoDecoder === 'undefined') {
    webcodecs = 'this browser has no WebCodecs VideoDecoder';
  } else {
    // WebKitGTK has VideoDecoder but decodes H.264 only with a GStreamer plugin.
    const probe = await VideoDecoder.isConfigSupported({ codec: PROBE_CODEC }).catch(() => ({ supported: false }));
    if (!probe.supported) webcodecs = `WebCodecs cannot decode H.264 (${PROBE_CODEC}) in this browser`;
  }
  let software = '';
  if (typeof Worker === 'undefined') software = 'this browser has no Web Workers for the software decoder';
  else if (typeof WebAssembly === 'undefined') software = 'this browser has no WebAssembly for the software decoder';
  return { webcodecs, software };
}

/** A VideoDecoder for codec, or why this browser cannot decode it. */
export async function openWebCodecs(codec: string, sink: PictureSink): Promise<StreamDecoder | string> {
  const config = { codec, optimizeForLatency: true };
  const probe = await VideoDecoder.isConfigSupported(config).catch(() => ({ supported: false }));
  if (!probe.supported) return `WebCodecs cannot decode this stream's H.264 (${codec})`;
  return new WebCodecsStream(config, sink);
}

class WebCodecsStream implements StreamDecoder {
  readonly name: string;
  failure = '';
  private readonly decoder: VideoDecoder;

  constructor(config: VideoDecoderConfig, sink: PictureSink) {
    this.name = `WebCodecs VideoDecoder (${config.codec})`;
    this.decoder = new VideoDecoder({
      output: (frame) => sink({ kind: 'frame', frame }, frame.timestamp),
      error: (e) => (this.failure = e.message || 'VideoDecoder failed'),
    });
    this.decoder.configure(config);
  }

  decode(au: Uint8Array, key: boolean, arrivedUs: number): void {
    if (this.decoder.state !== 'configured') return;
    this.decoder.decode(new EncodedVideoChunk({ type: key ? 'key' : 'delta', timestamp: arrivedUs, data: au }));
  }

  close(): void {
    if (this.decoder.state !== 'closed') this.decoder.close();
  }
}

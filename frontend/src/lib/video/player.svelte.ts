// The live preview as H.264: reads GET /api/preview/stream, decodes with WebCodecs'
// VideoDecoder and paints each picture on the stage's canvas, cropped to the device's
// display so the canvas has the geometry the JPEG image had. Where video cannot work
// (no VideoDecoder, the device cannot stream, --preview jpeg) it says why and the
// stage keeps showing JPEG frames.
import { ApiError } from '../api';
import { transport } from '../transport';
import type { VideoConfig } from '../wire.gen';
import { codecFromSPS, StreamParser } from './framing';
import { PaintStats, type PreviewStats } from './stats';

type Phase = 'off' | 'connecting' | 'video' | 'unavailable';

/** Constrained Baseline, level 3.1: what screenrecord streams at preview sizes. */
const PROBE_CODEC = 'avc1.42E01F';

export class LivePlayer {
  /** 'video' once pictures are painted; 'unavailable' means JPEG frames instead. */
  phase = $state<Phase>('off');
  /** Why video is unavailable. */
  reason = $state('');
  /** The stream's geometry; the stage sizes itself from displayWidth × displayHeight. */
  config = $state<VideoConfig | null>(null);
  /** Bumps on every paint, for the stage's "has an image" state. */
  painted = $state(0);

  readonly stats = new PaintStats();
  decoderName = 'none';
  private canvas: HTMLCanvasElement | null = null;
  private serial = '';
  private abort: AbortController | null = null;
  private retry: ReturnType<typeof setTimeout> | null = null;
  /** Streams in a row that ended without a painted picture. */
  private fruitless = 0;
  /** Bumped by stop(): work started for an earlier play() checks it and gives up. */
  private generation = 0;

  /** The canvas the pictures go to (null while the stage shows something else). */
  attach(canvas: HTMLCanvasElement | null): void {
    this.canvas = canvas;
  }

  /** Streams serial's screen until stop(), reconnecting when the stream ends. */
  play(serial: string): void {
    if (serial === this.serial && this.phase !== 'off') return;
    this.stop();
    this.serial = serial;
    this.fruitless = 0;
    void this.begin(serial, this.generation);
  }

  /** Opens the stream only where H.264 can be decoded, so the server keeps JPEG otherwise. */
  private async begin(serial: string, gen: number): Promise<void> {
    if (typeof VideoDecoder === 'undefined') {
      this.unavailable('this browser has no WebCodecs VideoDecoder');
      return;
    }
    this.phase = 'connecting';
    // WebKitGTK has VideoDecoder but decodes H.264 only with a GStreamer plugin.
    const probe = await VideoDecoder.isConfigSupported({ codec: PROBE_CODEC }).catch(() => ({ supported: false }));
    if (gen !== this.generation) return;
    if (!probe.supported) {
      this.unavailable(`this browser cannot decode H.264 (${PROBE_CODEC})`);
      return;
    }
    void this.run(serial, gen);
  }

  stop(): void {
    this.generation++;
    this.abort?.abort();
    this.abort = null;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.serial = '';
    this.phase = 'off';
    this.config = null;
  }

  private unavailable(reason: string): void {
    this.phase = 'unavailable';
    this.reason = reason;
  }

  private async run(serial: string, gen: number): Promise<void> {
    const abort = new AbortController();
    this.abort = abort;
    this.phase = this.phase === 'video' ? 'video' : 'connecting';
    let decoder: VideoDecoder | null = null;
    const painted = this.painted;
    try {
      const body = await transport.api.previewStream(abort.signal);
      const reader = body.getReader();
      const parser = new StreamParser();
      let needKey = true;
      let failed = false;
      decoder = new VideoDecoder({ output: (frame) => this.paint(frame), error: () => (failed = true) });
      while (!failed) {
        const { value, done } = await reader.read();
        if (done || abort.signal.aborted) break;
        for (const m of parser.push(value)) {
          if (m.kind === 'config') {
            this.config = m.config;
            needKey = true;
            continue;
          }
          if (needKey && !m.key) continue;
          const codec = m.key ? codecFromSPS(m.data) : null;
          if (codec && decoder.state === 'unconfigured') {
            const config = { codec, optimizeForLatency: true };
            if (!(await VideoDecoder.isConfigSupported(config)).supported) {
              this.unavailable(`this browser cannot decode H.264 (${codec})`);
              abort.abort();
              return;
            }
            decoder.configure(config);
            this.decoderName = `WebCodecs VideoDecoder (${codec})`;
          }
          if (decoder.state !== 'configured') continue;
          needKey = false;
          decoder.decode(new EncodedVideoChunk({ type: m.key ? 'key' : 'delta', timestamp: m.arrivedUs, data: m.data }));
        }
      }
      // A decode error (a picture cut short) ends this stream: reopening it replays
      // from the last key frame.
      await reader.cancel().catch(() => {});
    } catch (err) {
      if (abort.signal.aborted) return;
      if (err instanceof ApiError && err.code === 'video_unavailable') {
        this.unavailable(err.message);
        return;
      }
    } finally {
      if (decoder && decoder.state !== 'closed') decoder.close();
    }
    if (abort.signal.aborted || gen !== this.generation) return;
    this.fruitless = painted === this.painted ? this.fruitless + 1 : 0;
    if (this.fruitless >= 5) {
      // Five streams and no picture: show JPEG frames rather than nothing.
      this.unavailable('no picture could be decoded from the video stream');
      return;
    }
    // The stream ended (device change, a restart, a slow reader): open it again.
    this.retry = setTimeout(() => void this.run(serial, gen), this.phase === 'video' ? 100 : 1000);
  }

  private paint(frame: VideoFrame): void {
    const cfg = this.config;
    const c = this.canvas;
    try {
      if (!cfg || !c) return;
      if (c.width !== cfg.contentWidth || c.height !== cfg.contentHeight) {
        c.width = cfg.contentWidth;
        c.height = cfg.contentHeight;
      }
      c.getContext('2d')?.drawImage(frame, cfg.contentX, cfg.contentY, cfg.contentWidth, cfg.contentHeight, 0, 0, c.width, c.height);
      this.stats.note(Date.now() - frame.timestamp / 1000);
      this.phase = 'video';
      this.painted++;
    } finally {
      frame.close();
    }
  }
}

export const livePlayer = new LivePlayer();

/** Frames painted while the stage shows JPEG frames. */
export const jpegStats = new PaintStats();

/** window.FixThisConsoleDebug.previewStats(): which transport paints, and how well. */
export function previewStats(): PreviewStats {
  const video = livePlayer.phase === 'video';
  const s = video ? livePlayer.stats : jpegStats;
  return {
    transport: video ? 'h264' : 'jpeg',
    decoder: video ? livePlayer.decoderName : livePlayer.reason ? `img (JPEG); no video: ${livePlayer.reason}` : 'img (JPEG)',
    framesPainted: s.framesPainted,
    fps: s.fps(),
    latencyMsP50: s.latencyP50(),
  };
}

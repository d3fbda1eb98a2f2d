// The live preview as H.264: reads GET /api/preview/stream, decodes it and paints each
// picture on the stage's canvas, cropped to the device's display so the canvas has the
// geometry the JPEG image had. The decoder is WebCodecs' VideoDecoder where the browser
// can decode H.264, else the bundled software decoder (tinyh264, loaded on demand);
// choose.ts orders them. Where neither works (or the device cannot stream, or
// --preview jpeg) it says why and the stage keeps showing JPEG frames.
import { ApiError } from '../../api';
import type { Transport } from '../../transport';
import type { VideoConfig } from '../../wire.gen';
import { decoderPref, planDecoders, softwareRefuses, type DecoderKind } from './choose';
import { openWebCodecs, probeSupport, type Decoded, type StreamDecoder } from './decoders';
import { codecFromSPS, spsProfile, StreamParser } from './framing';
import type { SoftwareDecoder } from './software';
import { PaintStats, type PreviewStats } from './stats';

type Phase = 'off' | 'connecting' | 'video' | 'unavailable' | 'ended';

/** Errors that end a named phone's stage rather than fall back to JPEG frames. */
const STAGE_ENDING = new Set(['stage_limit', 'device_not_found', 'device_not_available']);

export class LivePlayer {
  /**
   * 'video' once pictures are painted; 'unavailable' means JPEG frames instead; 'ended'
   * means a named phone's stream will not come back (the phone left, or four others
   * are live).
   */
  phase = $state<Phase>('off');
  /** Why video is unavailable, or why the stream ended. */
  reason = $state('');
  /** The stream's geometry; the stage sizes itself from displayWidth × displayHeight. */
  config = $state<VideoConfig | null>(null);
  /**
   * The geometry of the picture on the canvas. It changes only when a picture of a new
   * stream is painted, so while a stream restarts (a turned phone, a resized stage) the
   * stage keeps the size of what it shows and a click maps to what the user sees.
   */
  shown = $state<VideoConfig | null>(null);
  /** Bumps on every paint. */
  painted = $state(0);
  /**
   * Whether the attached canvas holds a picture. A new canvas starts blank, and a
   * still screen may send no picture for a long time: the stage shows the canvas only
   * once something is on it, never "Live preview" over a blank stage.
   */
  canvasPainted = $state(false);

  readonly stats = new PaintStats();
  decoderName = 'none';
  private canvas: HTMLCanvasElement | null = null;
  private serial = '';
  /** The server the stream comes from, handed in by play(). */
  private transport: Transport | null = null;
  private abort: AbortController | null = null;
  private retry: ReturnType<typeof setTimeout> | null = null;
  /** Streams in a row that ended without a painted picture. */
  private fruitless = 0;
  /** Bumped by stop(): work started for an earlier play() checks it and gives up. */
  private generation = 0;
  /** The decoders this browser and the console's URL allow, best first. */
  private order: DecoderKind[] = [];
  /** The software decoder's worker, started the first time a stream needs it. */
  private software: Promise<SoftwareDecoder | string> | null = null;

  /**
   * named: the stream asks for its phone by serial (a side stage), so it ends when that
   * phone leaves; otherwise it follows the selected phone.
   */
  constructor(private readonly named = false) {}

  /** The canvas the pictures go to (null while the stage shows something else). */
  attach(canvas: HTMLCanvasElement | null): void {
    if (canvas !== this.canvas) this.canvasPainted = false;
    this.canvas = canvas;
  }

  /** Streams serial's screen over transport until stop(), reconnecting when the stream ends. */
  play(transport: Transport, serial: string): void {
    if (serial === this.serial && this.phase !== 'off') return;
    this.stop();
    this.transport = transport;
    this.serial = serial;
    this.fruitless = 0;
    void this.begin(serial, this.generation);
  }

  /** Opens the stream only where H.264 can be decoded, so the server keeps JPEG otherwise. */
  private async begin(serial: string, gen: number): Promise<void> {
    const pref = decoderPref(globalThis.location?.search ?? '');
    this.phase = 'connecting';
    const plan = planDecoders(pref, pref === 'jpeg' ? { webcodecs: '', software: '' } : await probeSupport());
    if (gen !== this.generation) return;
    if (!plan.order.length) {
      this.unavailable(plan.reason);
      return;
    }
    this.order = plan.order;
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
    this.shown = null;
  }

  private unavailable(reason: string): void {
    this.phase = 'unavailable';
    this.reason = reason;
  }

  private end(reason: string): void {
    this.phase = 'ended';
    this.reason = reason;
  }

  private async run(serial: string, gen: number): Promise<void> {
    const abort = new AbortController();
    this.abort = abort;
    this.phase = this.phase === 'video' ? 'video' : 'connecting';
    let decoder: StreamDecoder | null = null;
    const painted = this.painted;
    try {
      const body = await this.transport!.api.previewStream(abort.signal, this.named ? serial : '');
      const reader = body.getReader();
      const parser = new StreamParser();
      let needKey = true;
      while (!decoder?.failure) {
        const { value, done } = await reader.read();
        if (done || abort.signal.aborted) break;
        for (const m of parser.push(value)) {
          if (m.kind === 'ended') {
            this.end(m.reason);
            abort.abort();
            return;
          }
          if (m.kind === 'config') {
            this.config = m.config;
            needKey = true;
            continue;
          }
          if (needKey && !m.key) continue;
          if (!decoder) {
            const got = await this.openDecoder(m.data);
            if (abort.signal.aborted || gen !== this.generation) return;
            if (typeof got === 'string') {
              this.unavailable(got);
              abort.abort();
              return;
            }
            // null: a key frame without an SPS; wait for one that has it.
            if (!got) continue;
            decoder = got;
            this.decoderName = decoder.name;
          }
          needKey = false;
          const c = this.config;
          decoder.decode(m.data, m.key, m.arrivedUs, c && { x: c.contentX, y: c.contentY, width: c.contentWidth, height: c.contentHeight });
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
      if (this.named && err instanceof ApiError && STAGE_ENDING.has(err.code)) {
        this.end(err.message);
        return;
      }
    } finally {
      decoder?.close();
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

  /**
   * The first decoder in this.order that takes the stream whose key frame is au; why
   * none does; or null when au carries no SPS to judge by.
   */
  private async openDecoder(au: Uint8Array): Promise<StreamDecoder | string | null> {
    const codec = codecFromSPS(au);
    if (!codec) return null;
    const sink = (pic: Decoded, arrivedUs: number) => this.paint(pic, arrivedUs);
    const why: string[] = [];
    for (const kind of this.order) {
      if (kind === 'webcodecs') {
        const d = await openWebCodecs(codec, sink);
        if (typeof d !== 'string') return d;
        why.push(d);
        continue;
      }
      const refused = softwareRefuses(spsProfile(au));
      if (refused) {
        why.push(refused);
        continue;
      }
      // A separate chunk and worker: browsers with WebCodecs never download tinyh264.
      this.software ??= import('./software').then(async ({ SoftwareDecoder }) => {
        const sd = new SoftwareDecoder();
        return (await sd.ready) || sd;
      }).catch((err: unknown) => `the software decoder did not load: ${err instanceof Error ? err.message : String(err)}`);
      const sd = await this.software;
      if (typeof sd !== 'string') return sd.open(codec, sink);
      why.push(sd);
    }
    return why.join('; ');
  }

  private paint(pic: Decoded, arrivedUs: number): void {
    const cfg = this.config;
    const c = this.canvas;
    try {
      if (!cfg || !c) return;
      if (c.width !== cfg.contentWidth || c.height !== cfg.contentHeight) {
        c.width = cfg.contentWidth;
        c.height = cfg.contentHeight;
      }
      const ctx = c.getContext('2d');
      if (!ctx) return;
      if (pic.kind === 'frame') {
        ctx.drawImage(pic.frame, cfg.contentX, cfg.contentY, cfg.contentWidth, cfg.contentHeight, 0, 0, c.width, c.height);
      } else {
        // The software decoder crops in its worker; a picture cropped for a geometry
        // that has since changed is dropped.
        if (pic.image.width !== c.width || pic.image.height !== c.height) return;
        ctx.putImageData(pic.image, 0, 0);
      }
      this.stats.note(Date.now() - arrivedUs / 1000);
      if (this.shown !== cfg) this.shown = cfg;
      this.phase = 'video';
      this.painted++;
      if (!this.canvasPainted) this.canvasPainted = true;
    } finally {
      if (pic.kind === 'frame') pic.frame.close();
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

// The microphone: getUserMedia (audio only) into an AudioContext at 24 kHz and the
// capture worklet, which posts PCM16 chunks. Echo cancellation, noise suppression and
// automatic gain stay off: the interviewer's own turn detection wants the voice as
// spoken, and fake microphones in tests must arrive unchanged.
import workletUrl from './capture.worklet.ts?worker&url';
import type { CaptureChunk } from './capture.worklet';
import { VOICE_RATE } from './pcm';

export type MicProblem = 'denied' | 'no-device' | 'unsupported' | 'failed';

export class MicError extends Error {
  constructor(
    readonly problem: MicProblem,
    message: string,
  ) {
    super(message);
    this.name = 'MicError';
  }
}

export interface Capture {
  /** The context's rate; the worklet resamples to 24 kHz when it is not 24 kHz. */
  readonly contextRate: number;
  readonly deviceLabel: string;
  stop(): void;
}

export const AUDIO_CONSTRAINTS: MediaTrackConstraints = {
  channelCount: 1,
  echoCancellation: false,
  noiseSuppression: false,
  autoGainControl: false,
};

/** Maps what getUserMedia threw to what the user can do about it. */
export function micProblem(err: unknown): MicProblem {
  const name = (err as { name?: string })?.name ?? '';
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'DevicesNotFoundError') return 'no-device';
  return 'failed';
}

/** Opens the microphone; onChunk gets each PCM16LE chunk of chunkMs milliseconds. */
export async function startCapture(chunkMs: number, onChunk: (pcm: Uint8Array) => void): Promise<Capture> {
  if (!navigator.mediaDevices?.getUserMedia) {
    throw new MicError('unsupported', 'This window cannot use a microphone (no getUserMedia).');
  }
  if (typeof AudioWorkletNode === 'undefined') {
    throw new MicError('unsupported', 'This window cannot process audio (no AudioWorklet).');
  }
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ audio: AUDIO_CONSTRAINTS, video: false });
  } catch (err) {
    throw new MicError(micProblem(err), (err as Error)?.message || String(err));
  }
  let ctx: AudioContext;
  try {
    ctx = new AudioContext({ sampleRate: VOICE_RATE });
  } catch {
    ctx = new AudioContext(); // a browser that will not run at 24 kHz: the worklet resamples
  }
  try {
    await ctx.audioWorklet.addModule(workletUrl);
    const source = ctx.createMediaStreamSource(stream);
    const node = new AudioWorkletNode(ctx, 'fixthis-capture', {
      numberOfInputs: 1,
      numberOfOutputs: 1,
      channelCount: 1,
      channelCountMode: 'explicit',
      processorOptions: { chunkMs },
    });
    node.port.onmessage = (e: MessageEvent<CaptureChunk>) => onChunk(new Uint8Array(e.data.pcm));
    source.connect(node);
    // Pulled through a silent gain into the destination: every engine then runs the
    // worklet, and nothing is heard.
    const mute = ctx.createGain();
    mute.gain.value = 0;
    node.connect(mute).connect(ctx.destination);
    await ctx.resume();
    const track = stream.getAudioTracks()[0];
    return {
      contextRate: ctx.sampleRate,
      deviceLabel: track?.label ?? '',
      stop() {
        node.port.onmessage = null;
        source.disconnect();
        node.disconnect();
        mute.disconnect();
        for (const t of stream.getTracks()) t.stop();
        void ctx.close().catch(() => {});
      },
    };
  } catch (err) {
    for (const t of stream.getTracks()) t.stop();
    void ctx.close().catch(() => {});
    throw new MicError('failed', `The audio pipeline did not start: ${(err as Error)?.message || String(err)}`);
  }
}

// Talk while you point: starting and stopping the voice session, the microphone and
// its chunks, mute, spoken replies, the mode, the key, and the anchors that tell the
// interviewer what was clicked. The voice-* events arrive in events.ts.
import { ApiError } from '../../api';
import { app } from '../session/state.svelte';
import { draft } from '../../state/draft.svelte';
import { ui } from '../../state/ui.svelte';
import { voice } from './state.svelte';
import type { Transport } from '../../transport';
import { MicError, startCapture, type Capture } from './capture';
import { NO_KEY_HELP, inDesktopWindow, micHelp, platformOf } from './help';
import { ReplyPlayer } from './player';
import { AudioSender } from './sender';
import type { VoiceAnchor, VoiceMode, VoiceSession } from './types';
import { report } from '../../actions/report';
import { ensureSession } from '../session/actions';

/** Milliseconds of audio per chunk the worklet posts (the API takes 100-250 ms). */
export const CHUNK_MS = 100;
/** At most 250 ms per request: 6,000 samples of 2 bytes. */
const MAX_REQUEST_BYTES = 12000;
/** Two seconds of audio wait while the app is slow; older audio is dropped. */
const MAX_BACKLOG_BYTES = 96000;

/** A muted console sends no audio; an empty PUT this often tells the app it is still there. */
const KEEPALIVE_MS = 30000;

let capture: Capture | null = null;
let sender: AudioSender | null = null;
let keepalive: ReturnType<typeof setInterval> | null = null;
const player = new ReplyPlayer();

/** The sender's counters (chunk sizes, intervals), for the console's debug hook. */
export function voiceStats() {
  return sender ? JSON.parse(JSON.stringify(sender.stats)) : null;
}

/** Reads the voice settings (whether a key is set, the active session). */
export async function loadVoice(transport: Transport): Promise<void> {
  try {
    voice.setConfig(await transport.api.voice());
  } catch {
    voice.config = null; // an app without voice: the control explains when pressed
  }
}

/** After a reconnect: a session the app no longer holds ends here too. */
export async function resyncVoice(transport: Transport): Promise<void> {
  await loadVoice(transport);
  const s = voice.session;
  if (s && voice.config && voice.config.active?.voiceSessionId !== s.voiceSessionId) await endLocally({ kind: 'error', message: 'The voice session ended while the console was disconnected. Press T to talk again.' });
}

export function toggleTalk(transport: Transport): Promise<void> {
  return voice.talking || voice.starting ? stopTalk(transport) : startTalk(transport);
}

/** Closes the microphone and the player; settles once the last audio POST is answered. */
export function closeAudio(): Promise<void> {
  if (keepalive) clearInterval(keepalive);
  keepalive = null;
  capture?.stop();
  capture = null;
  const sent = sender?.close() ?? Promise.resolve();
  sender = null;
  player.stop();
  return sent;
}

/**
 * Starts Talk: checks the key, opens the microphone, then asks the app for a voice
 * session. When any step fails the earlier ones are undone: nothing half-starts.
 */
export async function startTalk(transport: Transport): Promise<void> {
  if (voice.talking || voice.starting) return;
  voice.notice = null;
  voice.starting = true;
  try {
    await loadVoice(transport);
    if (!voice.config) {
      voice.notice = { kind: 'error', message: 'This FixThis app does not offer voice. Update FixThis to talk while you point.' };
      return;
    }
    if (!voice.config.keySet) {
      voice.notice = { kind: 'no-key', message: NO_KEY_HELP };
      voice.settingsOpen = true;
      return;
    }
    const serial = app.selectedSerial;
    if (!serial) {
      voice.notice = { kind: 'error', message: 'Connect a device or use the demo device first, then press T to talk.' };
      return;
    }
    const sessionId = await ensureSession(transport);
    if (!sessionId) return;
    try {
      capture = await startCapture(CHUNK_MS, onChunk);
    } catch (err) {
      const problem = err instanceof MicError ? err.problem : 'failed';
      voice.micProblem = problem;
      voice.mic = problem === 'denied' ? 'denied' : 'off';
      voice.notice = { kind: 'mic', message: micHelp(problem, platformOf(navigator.userAgent), inDesktopWindow(location)) };
      return;
    }
    voice.micProblem = '';
    player.prepare(); // inside the Talk gesture, so the browser lets it play later
    let s: VoiceSession;
    try {
      s = await transport.api.startVoice(sessionId, serial, voice.spokenReplies, voice.mode);
    } catch (err) {
      void closeAudio();
      voice.mic = 'off';
      voice.notice = startRefusal(err);
      if (voice.notice.kind === 'no-key') voice.settingsOpen = true;
      await loadVoice(transport);
      return;
    }
    const id = s.voiceSessionId;
    sender = new AudioSender({
      maxBytes: MAX_REQUEST_BYTES,
      maxBacklogBytes: MAX_BACKLOG_BYTES,
      post: (body) => transport.api.voiceAudio(id, body),
      onError: (err) => {
        if (err instanceof ApiError && (err.status === 404 || err.status === 410)) void endLocally({ kind: 'error', message: 'The voice session ended in the app.' });
      },
    });
    voice.begin(s);
    voice.mic = 'granted';
    // The app ends a session whose console went quiet (a closed tab); a muted one is
    // quiet on purpose.
    keepalive = setInterval(() => {
      if (voice.session?.voiceSessionId === id && voice.muted) transport.api.updateVoice(id, {}).catch(() => {});
    }, KEEPALIVE_MS);
  } finally {
    voice.starting = false;
  }
}

/** What a refused POST /api/voice/sessions tells the user. */
export function startRefusal(err: unknown): { kind: 'no-key' | 'busy' | 'error'; message: string } {
  if (err instanceof ApiError) {
    const code = err.code.toLowerCase();
    if (code === 'voice_no_key' || err.status === 412) return { kind: 'no-key', message: `${err.message} ${NO_KEY_HELP}`.trim() };
    if (code === 'voice_busy' || err.status === 409) return { kind: 'busy', message: err.message || 'Another console is already talking on this project.' };
    if (err.status === 0) return { kind: 'error', message: 'Talk did not start: the FixThis app is not reachable.' };
    return { kind: 'error', message: `Talk did not start: ${err.message}` };
  }
  return { kind: 'error', message: `Talk did not start: ${(err as Error)?.message ?? String(err)}` };
}

function onChunk(pcm: Uint8Array): void {
  // Nothing leaves while Talk is off or muted: the check is here, at the source.
  if (!voice.sending || !sender) return;
  sender.push(pcm);
}

function endLocally(notice: Parameters<typeof voice.end>[0] = null): Promise<void> {
  const sent = closeAudio();
  voice.end(notice);
  return sent;
}

/**
 * Stops Talk: the microphone closes at once; once the audio already on its way has
 * arrived (at most 2 s), the app closes the interviewer.
 */
export async function stopTalk(transport: Transport): Promise<void> {
  const s = voice.session;
  const sent = endLocally();
  if (!s) return;
  await Promise.race([sent, new Promise((r) => setTimeout(r, 2000))]);
  try {
    await transport.api.stopVoice(s.voiceSessionId);
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404)) report(err, 'Could not stop the interviewer');
  }
}

export async function setMuted(transport: Transport, muted: boolean): Promise<void> {
  const s = voice.session;
  if (!s || !voice.talking) return;
  voice.mic = muted ? 'muted' : 'unmuted'; // before the request: no chunk leaves meanwhile
  try {
    voice.applyState(await transport.api.updateVoice(s.voiceSessionId, { muted }));
  } catch (err) {
    report(err, muted ? 'Could not tell the interviewer you muted' : 'Could not tell the interviewer you unmuted');
  }
}

export async function setSpokenReplies(transport: Transport, on: boolean): Promise<void> {
  voice.spokenReplies = on;
  if (!on) player.stop();
  const s = voice.session;
  if (!s || !voice.talking) return;
  try {
    voice.applyState(await transport.api.updateVoice(s.voiceSessionId, { spokenReplies: on }));
  } catch (err) {
    report(err, 'Could not switch spoken replies');
  }
}

/**
 * How units reach the agent. While Talk is on the app is told at once (and the
 * session's answer is what shows); otherwise the choice is kept for the next Talk.
 */
export async function setVoiceMode(transport: Transport, mode: VoiceMode): Promise<void> {
  const before = voice.mode;
  voice.setMode(mode);
  const s = voice.session;
  if (!s || !voice.talking) return;
  try {
    voice.applyState(await transport.api.updateVoice(s.voiceSessionId, { mode }));
  } catch (err) {
    voice.setMode(before);
    report(err, 'Could not switch how spoken changes reach the agent', 'The mode is unchanged.');
  }
}

/** Stores a key the user pasted; the page forgets it as soon as the app has it. */
export async function saveVoiceKey(transport: Transport, key: string): Promise<boolean> {
  const k = key.trim();
  if (!k) return false;
  try {
    await transport.api.setVoiceKey(k);
    await loadVoice(transport);
    if (voice.notice?.kind === 'no-key') voice.notice = null;
    app.notify('success', 'OpenAI key saved in the system keychain. Press T to talk.', { topic: 'voiceKey' });
    return true;
  } catch (err) {
    report(err, 'Could not save the key', 'Nothing was stored; you can still start FixThis with OPENAI_API_KEY set.');
    return false;
  }
}

export async function removeVoiceKey(transport: Transport): Promise<void> {
  try {
    await transport.api.deleteVoiceKey();
    await loadVoice(transport);
    app.notify('success', 'The OpenAI key was removed from the system keychain.', { topic: 'voiceKey' });
  } catch (err) {
    report(err, 'Could not remove the key');
  }
}

/** Tells the interviewer what the user pointed at; a no-op while Talk is off. */
export function announce(transport: Transport, anchor: Omit<VoiceAnchor, 'serial' | 'mode'> & { mode?: VoiceAnchor['mode'] }): void {
  const s = voice.session;
  if (!s || !voice.talking) return;
  const mode = anchor.mode ?? (ui.stageMode === 'frozen' ? 'annotate' : 'select');
  const frozenId = mode === 'annotate' ? draft.workspace?.context.frozenId : undefined;
  const body: VoiceAnchor = { ...anchor, mode, serial: s.serial || app.selectedSerial, ...(frozenId ? { frozenId } : {}) };
  transport.api.voiceAnchor(s.voiceSessionId, body).catch((err) => {
    console.warn('fixthis: the interviewer was not told about the click', err);
  });
}

/** Stops the interviewer's spoken reply (the user talks over it, or turned replies off). */
export function stopReply(): void {
  player.stop();
}

/** Plays a chunk of the interviewer's spoken reply. */
export function playReply(pcm: string): void {
  player.play(pcm);
}

// Screen clips: the clip button cuts the last seconds of the live screen into a clip
// (a long press records until it is released, up to 30 s) and attaches it to the
// pending annotation; without one, the clip becomes a note on the whole screen. A cut
// of a recording that fails (the session was closed or deleted meanwhile, the app did not
// answer) keeps the recording: the next click on the button cuts it again.
import { app } from '../session/state.svelte';
import { draft } from '../../state/draft.svelte';
import { ui } from '../../state/ui.svelte';
import { ApiError } from '../../api';
import type { Transport } from '../../transport';
import type { DraftClip } from '../../workspace';
import { annotate, pickScreen } from '../../actions/annotate';
import { report } from '../../actions/report';
import { ensureSession } from '../session/actions';
import { clips } from './state.svelte';

/** How far back a click on the button reaches. */
export const CLIP_SECONDS = 5;
/** Held this long, the button records until it is released. */
export const LONG_PRESS_MS = 450;
/** A recording ends by itself after the longest clip. */
export const MAX_RECORD_MS = 30_000;

let pressTimer: ReturnType<typeof setTimeout> | undefined;
let stopTimer: ReturnType<typeof setTimeout> | undefined;
let pressed = false;
let recording: Promise<string> | null = null;

/** Pointer down on the clip button: a long press starts a recording. */
export function clipPressStart(transport: Transport): void {
  if (clips.busy || !app.selectedSerial) return;
  pressed = true;
  pressTimer = setTimeout(() => {
    pressTimer = undefined;
    const serial = app.selectedSerial;
    clips.busy = 'recording';
    recording = transport.api.startRecording(serial).then((r) => r.recordingId);
    recording.catch((err) => {
      clips.busy = '';
      recording = null;
      pressed = false;
      report(err, 'Could not start recording the screen', 'Try a short click to clip the last 5 s.');
    });
    stopTimer = setTimeout(() => void clipPressEnd(transport), MAX_RECORD_MS);
  }, LONG_PRESS_MS);
}

/**
 * Pointer up: a click clips the last 5 s (or cuts a kept recording again), the end of
 * a long press cuts the recording.
 */
export async function clipPressEnd(transport: Transport): Promise<void> {
  if (!pressed) return;
  pressed = false;
  clearTimeout(stopTimer);
  if (pressTimer !== undefined) {
    clearTimeout(pressTimer);
    pressTimer = undefined;
    await clipClick(transport);
    return;
  }
  const started = recording;
  recording = null;
  if (!started) return;
  let recordingId: string;
  try {
    recordingId = await started;
  } catch {
    return; // reported when it failed
  }
  await cutClip(transport, { seconds: 0, recordingId });
}

/** A click on the button (or Enter on it): the kept recording of this device, else the last 5 s. */
export function clipClick(transport: Transport): Promise<void> {
  const kept = clips.kept;
  if (kept && kept.serial === app.selectedSerial) return cutClip(transport, { seconds: 0, recordingId: kept.recordingId });
  return cutClip(transport, { seconds: CLIP_SECONDS });
}

/** Cuts a clip of the selected device and attaches it. */
export async function cutClip(transport: Transport, req: { seconds: number; recordingId?: string }): Promise<void> {
  const serial = app.selectedSerial;
  if (!serial) {
    app.notify('warning', 'Connect a device or use the demo device first, then clip what moves.');
    return;
  }
  clips.busy = 'cutting';
  let clip: DraftClip;
  try {
    const sessionId = await ensureSession(transport);
    if (!sessionId) {
      // ensureSession said why; the recording waits for a session.
      if (req.recordingId) clips.kept = { recordingId: req.recordingId, serial };
      return;
    }
    const r = await transport.api.clip({ serial, sessionId, seconds: req.seconds, recordingId: req.recordingId });
    clip = { clipId: r.clipId, durationMs: r.durationMs, videoUrl: r.clip.videoUrl };
    if (req.recordingId) clips.kept = null;
  } catch (err) {
    const gone = err instanceof ApiError && err.code === 'clip_not_found';
    if (req.recordingId && !gone) {
      clips.kept = { recordingId: req.recordingId, serial };
      report(err, 'Could not cut the recording', 'The recording is kept: pick or start a session, then click the clip button to cut it again.');
    } else {
      if (gone) clips.kept = null;
      report(err, 'Could not cut a clip', 'Keep the live preview open for a few seconds and try again.');
    }
    return;
  } finally {
    clips.busy = '';
  }
  await attachClip(transport, clip);
}

/** The pending annotation takes the clip; else the edited draft; else a new note on the whole screen. */
export async function attachClip(transport: Transport, clip: DraftClip): Promise<void> {
  if (ui.pending) {
    ui.pendingClip = clip;
    return;
  }
  if (ui.editingDraftId && draft.items.some((d) => d.draftItemId === ui.editingDraftId)) {
    draft.update(ui.editingDraftId, { clip });
    return;
  }
  if (ui.stageMode !== 'frozen') await annotate(transport);
  if (ui.stageMode !== 'frozen') return;
  pickScreen(transport);
  ui.pendingClip = clip;
}

/** The clip's MP4 as an object URL (fetched with the token in a header). */
export function clipObjectUrl(transport: Transport, path: string): Promise<string> {
  return transport.api.blobUrl(path);
}

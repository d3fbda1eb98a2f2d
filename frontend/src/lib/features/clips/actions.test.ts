import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api';
import { app } from '../session/state.svelte';
import { draft } from '../../state/draft.svelte';
import { ui } from '../../state/ui.svelte';
import type { Transport } from '../../transport';
import { addPending, pickScreen } from '../../actions/annotate';
import { attachClip, clipClick, cutClip } from './actions';
import { clips } from './state.svelte';
import { screen } from '../../testing/fixtures';

/** The transport the actions are handed; a test that reaches the server sets its api. */
let transport = {} as Transport;

const clip = (id: string) => ({ clipId: id, durationMs: 5000, videoUrl: `/api/clips/${id}/video?sessionId=S` });

beforeEach(() => {
  draft.close(true);
  ui.clearSelection();
  draft.begin({ frozenId: 'p1', imageUrl: '/img', screen: screen({ fingerprint: 'fp', width: 1000, height: 2000 }), nodes: [] }, { sessionId: 'S', serial: 'emu' });
  ui.enterFrozen();
});

describe('clips', () => {
  it('attach to the pending annotation and travel with it into the draft', async () => {
    pickScreen(transport);
    await attachClip(transport, clip('c1'));
    expect(ui.pendingClip?.clipId).toBe('c1');
    ui.pendingComment = 'the dialog flashes white';
    addPending();
    expect(draft.items[0].clip?.clipId).toBe('c1');
    expect(ui.pendingClip).toBeNull();
  });

  it('replace the clip of the draft being edited', async () => {
    pickScreen(transport);
    ui.pendingComment = 'janky';
    addPending();
    ui.editingDraftId = draft.items[0].draftItemId;
    await attachClip(transport, clip('c2'));
    expect(draft.items[0].clip?.clipId).toBe('c2');
  });

  it('become a note on the whole screen when nothing is pending', async () => {
    await attachClip(transport, clip('c3'));
    expect(ui.pending?.target).toEqual({ type: 'screen' });
    expect(ui.pendingClip?.clipId).toBe('c3');
  });

  it('are dropped with a cancelled annotation', async () => {
    pickScreen(transport);
    await attachClip(transport, clip('c4'));
    ui.cancelPending();
    expect(ui.pendingClip).toBeNull();
  });
});

describe('a failed cut of a recording', () => {
  /** The clip requests the fake server saw, and what it answers each. */
  let asked: { seconds: number; recordingId?: string; sessionId: string }[];
  let answers: (() => unknown)[];

  beforeEach(() => {
    asked = [];
    answers = [];
    transport = {
      api: {
        clip: vi.fn(async (req: { seconds: number; recordingId?: string; sessionId: string }) => {
          asked.push(req);
          return answers.shift()!();
        }),
      },
    } as unknown as Transport;
    app.selectedSerial = 'emu';
    app.activeSessionId = 'S';
    clips.kept = null;
  });

  const closed = () => {
    throw new ApiError(409, 'session_closed', 'session S is closed');
  };
  const cut = () => ({ clipId: 'c9', durationMs: 2500, clip: { videoUrl: '/api/clips/c9/video?sessionId=S' } });

  it('keeps the recording, so the next click cuts it again', async () => {
    answers.push(closed, cut);
    await cutClip(transport, { seconds: 0, recordingId: 'r1' });
    expect(clips.kept).toEqual({ recordingId: 'r1', serial: 'emu' });
    expect(ui.pendingClip).toBeNull();
    await clipClick(transport);
    expect(asked.map((r) => r.recordingId)).toEqual(['r1', 'r1']);
    expect(asked[1].seconds).toBe(0);
    expect(clips.kept).toBeNull();
    expect(ui.pendingClip?.clipId).toBe('c9');
  });

  it('forgets a recording the app no longer has, and a click clips the last 5 s again', async () => {
    answers.push(closed, () => {
      throw new ApiError(404, 'clip_not_found', 'no recording r1 of emu is running');
    }, cut);
    await cutClip(transport, { seconds: 0, recordingId: 'r1' });
    await clipClick(transport);
    expect(clips.kept).toBeNull();
    await clipClick(transport);
    expect(asked.map((r) => [r.seconds, r.recordingId])).toEqual([
      [0, 'r1'],
      [0, 'r1'],
      [5, undefined],
    ]);
  });

  it('is kept for its own device only', async () => {
    answers.push(closed, cut);
    await cutClip(transport, { seconds: 0, recordingId: 'r1' });
    app.selectedSerial = 'other';
    await clipClick(transport);
    expect(asked[1]).toMatchObject({ seconds: 5 });
    expect(clips.kept).toEqual({ recordingId: 'r1', serial: 'emu' });
  });
});

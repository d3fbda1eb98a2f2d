import { beforeEach, describe, expect, it, vi } from 'vitest';
import { newDiagnostics } from '../../diagnostics';
import { Dispatcher } from '../../dispatch';
import { closeAudio, playReply, stopReply } from './actions';
import { effects, register } from './events';
import { voice } from './state.svelte';
import { voiceSession } from '../../testing/fixtures';
import type { Transport } from '../../transport';

vi.mock('./actions', () => ({ closeAudio: vi.fn(async () => undefined), playReply: vi.fn(), resyncVoice: vi.fn(async () => undefined), stopReply: vi.fn() }));

const sess = voiceSession;

function wired(): Dispatcher {
  const events = new Dispatcher();
  register(events.on);
  effects({ on: events.on, onOutcome: () => undefined, diagnostics: newDiagnostics(), refresh: async () => undefined, transport: {} as Transport });
  return events;
}

describe('the voice events', () => {
  beforeEach(() => {
    vi.clearAllMocks();
    voice.end();
    voice.begin(sess());
    voice.spokenReplies = true;
  });

  it("close the microphone when the app ends this console's session, not another's", () => {
    const events = wired();
    events.dispatch('voice-state', sess({ voiceSessionId: 'other', state: 'stopped' }));
    expect(closeAudio).not.toHaveBeenCalled();
    expect(voice.talking).toBe(true);
    events.dispatch('voice-state', sess({ state: 'failed', message: 'upstream closed' }));
    expect(voice.talking).toBe(false);
    expect(voice.notice).toEqual({ kind: 'failed', message: 'upstream closed' });
    expect(closeAudio).toHaveBeenCalledTimes(1);
  });

  it('stop the spoken reply when the user talks over it, and play only this session while replies are on', () => {
    const events = wired();
    events.dispatch('voice-speech', { voiceSessionId: 'v1', speaking: true });
    expect(voice.speaking).toBe(true);
    expect(stopReply).toHaveBeenCalledTimes(1);
    events.dispatch('voice-audio', { voiceSessionId: 'other', responseId: 'r1', pcm: 'AAAA' });
    events.dispatch('voice-audio', { voiceSessionId: 'v1', responseId: 'r1', pcm: 'AAAA' });
    expect(playReply).toHaveBeenCalledTimes(1);
    voice.spokenReplies = false;
    events.dispatch('voice-audio', { voiceSessionId: 'v1', responseId: 'r1', pcm: 'AAAA' });
    expect(playReply).toHaveBeenCalledTimes(1);
  });

  it('apply the transcript before any side effect runs', () => {
    const events = wired();
    events.dispatch('voice-transcript', { voiceSessionId: 'v1', role: 'riffer', text: 'make it blue', final: true, turnId: 't1' });
    expect(voice.rows.map((r) => (r.kind === 'line' ? r.text : r.kind))).toEqual(['make it blue']);
  });
});

import { describe, expect, it } from 'vitest';
import type { VoiceSession } from '../voice/types';
import { VoiceStore } from './voice.svelte';

const sess = (over: Partial<VoiceSession> = {}): VoiceSession => ({
  voiceSessionId: 'v1',
  sessionId: 's1',
  serial: 'emu',
  state: 'listening',
  muted: false,
  spokenReplies: true,
  startedAt: '',
  holder: 'console',
  ...over,
});

const tr = (role: 'riffer' | 'interviewer', text: string, final: boolean, turnId = 't1', voiceSessionId = 'v1') => ({ voiceSessionId, role, text, final, turnId });

describe('VoiceStore', () => {
  it('replaces the live line with partials and appends a row per final', () => {
    const v = new VoiceStore();
    v.begin(sess());
    v.applyTranscript(tr('riffer', 'make the', false));
    v.applyTranscript(tr('riffer', 'make the button', false));
    expect(v.partial?.text).toBe('make the button');
    expect(v.rows).toHaveLength(0);
    v.applyTranscript(tr('riffer', 'Make the button blue.', true));
    expect(v.partial).toBeNull();
    v.applyTranscript(tr('interviewer', 'Which button?', true, 't2'));
    expect(v.rows.map((r) => [r.role, r.text])).toEqual([
      ['riffer', 'Make the button blue.'],
      ['interviewer', 'Which button?'],
    ]);
  });

  it('ignores events of another console’s voice session', () => {
    const v = new VoiceStore();
    v.begin(sess());
    expect(v.applyTranscript(tr('riffer', 'hello', true, 't1', 'other'))).toBe(false);
    expect(v.applyState(sess({ voiceSessionId: 'other', state: 'failed' }))).toBe('ignored');
    expect(v.rows).toHaveLength(0);
    expect(v.talking).toBe(true);
  });

  it('ends on a failed state with the server’s message and keeps the transcript', () => {
    const v = new VoiceStore();
    v.begin(sess());
    v.mic = 'granted';
    v.applyTranscript(tr('riffer', 'hello there', true));
    expect(v.applyState(sess({ state: 'failed', errorCode: 'VOICE_KEY_REFUSED', message: 'OpenAI refused the key' }))).toBe('ended');
    expect(v.talking).toBe(false);
    expect(v.mic).toBe('off');
    expect(v.notice).toEqual({ kind: 'failed', message: 'OpenAI refused the key' });
    expect(v.rows).toHaveLength(1);
  });

  it('sends only while talking and not muted', () => {
    const v = new VoiceStore();
    expect(v.sending).toBe(false);
    v.begin(sess());
    v.mic = 'granted';
    expect(v.sending).toBe(true);
    v.mic = 'muted';
    expect(v.sending).toBe(false);
    v.mic = 'unmuted';
    expect(v.sending).toBe(true);
    v.applyState(sess({ state: 'reconnecting' }));
    expect(v.sending).toBe(true);
    v.end();
    expect(v.sending).toBe(false);
  });

  it('keeps a denied microphone denied after Talk ends', () => {
    const v = new VoiceStore();
    v.mic = 'denied';
    v.end();
    expect(v.mic).toBe('denied');
  });
});

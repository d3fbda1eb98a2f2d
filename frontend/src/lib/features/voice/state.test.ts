import { describe, expect, it } from 'vitest';
import type { Item } from '../../types';
import { VoiceStore } from './state.svelte';
import { voiceSession } from '../../testing/fixtures';

const sess = voiceSession;

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
    expect(v.rows.map((r) => r.kind === 'line' && [r.role, r.text])).toEqual([
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

  it('shows units and questions of its own session and follows their items', () => {
    const v = new VoiceStore();
    v.begin(sess());
    const u = { voiceSessionId: 'v1', unitId: 'unit_0001', itemId: 'i1', sequenceNumber: 1, statement: 'Bigger title', excerpt: 'make the title bigger', action: 'recorded' as const };
    expect(v.applyUnit({ ...u, voiceSessionId: 'other' }, undefined)).toBe(false);
    expect(v.applyUnit(u, undefined)).toBe(true);
    expect(v.applyQuestion({ voiceSessionId: 'v1', unitId: 'unit_0001', itemId: 'i1', question: 'Which title?' })).toBe(true);
    expect(v.rows.map((r) => r.kind)).toEqual(['unit', 'question']);
    const items = [{ itemId: 'i1', phase: 'needs_clarification', sequenceNumber: 1 }] as Item[];
    v.followItems('another-session', items);
    expect(v.rows[0]).toMatchObject({ phase: '' });
    v.followItems('s1', items);
    expect(v.rows[0]).toMatchObject({ phase: 'needs_clarification' });
    // After Talk stops the rows still follow their items.
    v.end();
    v.followItems('s1', []);
    expect(v.rows[0]).toMatchObject({ action: 'withdrawn' });
  });

  it('takes the mode the session answers with', () => {
    const v = new VoiceStore();
    expect(v.mode).toBe('smart');
    v.begin(sess({ mode: 'collect' }));
    expect(v.mode).toBe('collect');
    v.applyState(sess({ mode: 'instant' }));
    expect(v.mode).toBe('instant');
  });

  it('keeps a denied microphone denied after Talk ends', () => {
    const v = new VoiceStore();
    v.mic = 'denied';
    v.end();
    expect(v.mic).toBe('denied');
  });
});

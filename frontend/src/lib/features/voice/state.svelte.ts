// Talk while you point: the voice settings the server reports, this console's voice
// session, the microphone's state and the transcript (spoken lines, the units they
// became and the agents' questions about them). The capture and playback machinery
// lives in actions/voice.ts; this holds what the view shows.
import type { Item } from '../../types';
import { VoiceModeValues } from '../../wire.gen';
import type { MicProblem } from './capture';
import type { VoiceConfig, VoiceError, VoiceMode, VoiceQuestion, VoiceSession, VoiceTranscript, VoiceUnit } from './types';
import { applyUnit, followItems, questionRow, type TranscriptRow } from './units';

/** `#micState`'s data-state. */
export type MicState = 'off' | 'granted' | 'denied' | 'muted' | 'unmuted';

export type { TranscriptRow };

export const VOICE_MODES: readonly VoiceMode[] = VoiceModeValues;

function isMode(v: unknown): v is VoiceMode {
  return typeof v === 'string' && (VOICE_MODES as readonly string[]).includes(v);
}

/** Why Talk did not start, or stopped, and what to do about it (shown under the control). */
export interface VoiceNotice {
  kind: 'no-key' | 'mic' | 'busy' | 'failed' | 'error';
  message: string;
}

const KEEP_ROWS = 200;
const MODE_KEY = 'fixthis.voiceMode';

export class VoiceStore {
  config = $state<VoiceConfig | null>(null);
  session = $state<VoiceSession | null>(null);
  mic = $state<MicState>('off');
  micProblem = $state<MicProblem | ''>('');
  rows = $state<TranscriptRow[]>([]);
  /** The FixThis session the transcript's units were recorded in. */
  rowsSessionId = $state('');
  /** How units reach the agent: this session's mode, or the next one's. */
  mode = $state<VoiceMode>('smart');
  partial = $state<{ role: 'riffer' | 'interviewer'; text: string; turnId: string } | null>(null);
  /** The interviewer heard speech start (voice-speech). */
  speaking = $state(false);
  starting = $state(false);
  settingsOpen = $state(false);
  /** Spoken replies for the next session too; the session's own flag wins while it runs. */
  spokenReplies = $state(true);
  notice = $state<VoiceNotice | null>(null);
  lastError = $state<VoiceError | null>(null);
  private nextKey = 1;

  /** A session is open (or opening) for this console. */
  get talking(): boolean {
    const s = this.session;
    return s !== null && s.state !== 'stopped' && s.state !== 'failed';
  }

  get muted(): boolean {
    return this.mic === 'muted';
  }

  /** Audio may leave: Talk on, the microphone open and not muted. */
  get sending(): boolean {
    return this.talking && (this.mic === 'granted' || this.mic === 'unmuted');
  }

  setConfig(c: VoiceConfig): void {
    this.config = c;
  }

  /** A new session: the transcript starts over. */
  begin(s: VoiceSession): void {
    this.session = s;
    this.spokenReplies = s.spokenReplies;
    this.takeMode(s);
    this.rows = [];
    this.rowsSessionId = s.sessionId;
    this.partial = null;
    this.speaking = false;
    this.lastError = null;
    this.notice = null;
  }

  /** Talk is off: the microphone is closed; the transcript stays for reading. */
  end(notice: VoiceNotice | null = null): void {
    this.session = null;
    this.mic = this.mic === 'denied' ? 'denied' : 'off';
    this.partial = null;
    this.speaking = false;
    this.starting = false;
    if (notice) this.notice = notice;
  }

  private ours(voiceSessionId: string | undefined): boolean {
    return Boolean(this.session && voiceSessionId === this.session.voiceSessionId);
  }

  /**
   * A voice-state event. Returns 'ended' when this console's session stopped or
   * failed on the server's side (the caller closes the microphone).
   */
  applyState(s: VoiceSession): 'applied' | 'ended' | 'ignored' {
    if (!this.ours(s.voiceSessionId)) return 'ignored';
    if (s.state === 'stopped' || s.state === 'failed') {
      const notice: VoiceNotice | null =
        s.state === 'failed' ? { kind: 'failed', message: s.message || 'The interviewer stopped.' } : s.message ? { kind: 'error', message: s.message } : null;
      this.end(notice);
      return 'ended';
    }
    this.session = s;
    this.takeMode(s);
    return 'applied';
  }

  /** Chooses the mode (kept in this browser for the next Talk). */
  setMode(m: VoiceMode): void {
    this.mode = m;
    try {
      localStorage.setItem(MODE_KEY, m);
    } catch {
      // No storage (private mode, tests): the choice lasts this page.
    }
  }

  /** The mode this browser chose last time, if any. */
  restoreMode(): void {
    try {
      const m = localStorage.getItem(MODE_KEY);
      if (isMode(m)) this.mode = m;
    } catch {
      // No storage: the default stays.
    }
  }

  /** The mode a session answer carries, when it carries one. */
  takeMode(s: VoiceSession): void {
    if (isMode(s.mode)) this.mode = s.mode;
  }

  /** A voice-transcript event: a partial replaces the live line, a final adds a row. */
  applyTranscript(t: VoiceTranscript): boolean {
    if (!this.ours(t.voiceSessionId)) return false;
    if (!t.final) {
      this.partial = { role: t.role, text: t.text, turnId: t.turnId };
      return true;
    }
    if (t.text.trim()) {
      this.rows = [...this.rows, { kind: 'line' as const, key: this.nextKey++, role: t.role, text: t.text, turnId: t.turnId }].slice(-KEEP_ROWS);
    }
    if (this.partial && (this.partial.turnId === t.turnId || this.partial.role === t.role)) this.partial = null;
    return true;
  }

  /**
   * A voice-unit event: the unit's row, added or updated in place. `items` are the
   * active session's, so the row shows its item's phase when the item is already there.
   */
  applyUnit(u: VoiceUnit, items: readonly Item[] | undefined): boolean {
    if (!this.ours(u.voiceSessionId)) return false;
    const r = applyUnit(this.rows, u, this.nextKey, items);
    if (r.added) this.nextKey++;
    this.rows = r.rows.slice(-KEEP_ROWS);
    return true;
  }

  /** A voice-question event: the agent's question shows as a row. */
  applyQuestion(q: VoiceQuestion): boolean {
    if (!this.ours(q.voiceSessionId)) return false;
    this.rows = [...this.rows, questionRow(q, this.nextKey++)].slice(-KEEP_ROWS);
    return true;
  }

  /**
   * The session's items changed: each unit row follows its item's phase, after Talk
   * stopped too. Items of another session say nothing about these rows.
   */
  followItems(sessionId: string, items: readonly Item[] | undefined): void {
    if (!items || !sessionId || sessionId !== this.rowsSessionId) return;
    this.rows = followItems(this.rows, items);
  }

  applySpeech(voiceSessionId: string, speaking: boolean): boolean {
    if (!this.ours(voiceSessionId)) return false;
    this.speaking = speaking;
    return true;
  }

  applyError(e: VoiceError): boolean {
    if (!this.ours(e.voiceSessionId)) return false;
    this.lastError = e;
    return true;
  }
}

export const voice = new VoiceStore();

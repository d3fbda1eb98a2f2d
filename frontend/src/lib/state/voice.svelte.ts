// Talk while you point: the voice settings the server reports, this console's voice
// session, the microphone's state and the transcript. The capture and playback
// machinery lives in actions/voice.ts; this holds what the view shows.
import type { MicProblem } from '../voice/capture';
import type { VoiceConfig, VoiceError, VoiceSession, VoiceTranscript } from '../voice/types';

/** `#micState`'s data-state. */
export type MicState = 'off' | 'granted' | 'denied' | 'muted' | 'unmuted';

export interface TranscriptRow {
  key: number;
  role: 'riffer' | 'interviewer';
  text: string;
  turnId: string;
}

/** Why Talk did not start, or stopped, and what to do about it (shown under the control). */
export interface VoiceNotice {
  kind: 'no-key' | 'mic' | 'busy' | 'failed' | 'error';
  message: string;
}

const KEEP_ROWS = 200;

export class VoiceStore {
  config = $state<VoiceConfig | null>(null);
  session = $state<VoiceSession | null>(null);
  mic = $state<MicState>('off');
  micProblem = $state<MicProblem | ''>('');
  rows = $state<TranscriptRow[]>([]);
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
    this.rows = [];
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
    return 'applied';
  }

  /** A voice-transcript event: a partial replaces the live line, a final adds a row. */
  applyTranscript(t: VoiceTranscript): boolean {
    if (!this.ours(t.voiceSessionId)) return false;
    if (!t.final) {
      this.partial = { role: t.role, text: t.text, turnId: t.turnId };
      return true;
    }
    if (t.text.trim()) {
      this.rows = [...this.rows, { key: this.nextKey++, role: t.role, text: t.text, turnId: t.turnId }].slice(-KEEP_ROWS);
    }
    if (this.partial && (this.partial.turnId === t.turnId || this.partial.role === t.role)) this.partial = null;
    return true;
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

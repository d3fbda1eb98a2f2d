// The voice routes' and events' shapes, as the console reads them (docs/api.md, "Voice").

export type VoiceState = 'connecting' | 'listening' | 'reconnecting' | 'stopped' | 'failed';

export interface VoiceSession {
  voiceSessionId: string;
  sessionId: string;
  serial: string;
  state: VoiceState;
  muted: boolean;
  spokenReplies: boolean;
  startedAt: string;
  holder: string;
  message?: string;
  errorCode?: string;
}

export interface VoiceConfig {
  keySet: boolean;
  keySource: 'env' | 'keychain' | '';
  keychainAvailable: boolean;
  model: string;
  voice: string;
  active: VoiceSession | null;
}

export interface VoiceTranscript {
  voiceSessionId: string;
  role: 'riffer' | 'interviewer';
  text: string;
  final: boolean;
  turnId: string;
}

export interface VoiceSpeech {
  voiceSessionId: string;
  speaking: boolean;
}

export interface VoiceAudio {
  voiceSessionId: string;
  responseId: string;
  pcm: string;
}

export interface VoiceError {
  voiceSessionId: string;
  code: string;
  message: string;
}

export interface VoiceAnchor {
  kind: 'click' | 'area' | 'screen';
  mode: 'select' | 'annotate';
  serial: string;
  frozenId?: string;
  nodeUid?: string;
  x?: number;
  y?: number;
  bounds?: { left: number; top: number; right: number; bottom: number };
  note?: string;
}

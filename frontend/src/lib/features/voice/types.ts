// The voice routes' and events' shapes: the wire contract's (generated from Go), plus
// the anchor request the console builds (docs/api.md, "Voice").
export type { VoiceAudio, VoiceError, VoiceMode, VoiceOrigin, VoiceQuestion, VoiceSession, VoiceSpeech, VoiceState, VoiceTranscript, VoiceUnit } from '../../wire.gen';
export type { VoiceStatus as VoiceConfig, VoiceAnchor as AnchorAnswer } from '../../wire.gen';

/** The body of POST /api/voice/sessions/{id}/anchors, in device pixels. */
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


// The voice-* events of the stream. The reducers apply each to this console's voice
// state (events of another console's voice session are ignored there); the side effects
// then close the microphone of a session the app ended, stop or play the interviewer's
// spoken reply, and check after a reconnect that the session still runs.
import type { On } from '../../dispatch';
import { app } from '../session/state.svelte';
import type { FeatureContext } from '../feature';
import { closeAudio, playReply, resyncVoice, stopReply } from './actions';
import { voice, type VoiceStore } from './state.svelte';

export function register(on: On, state: VoiceStore = voice): void {
  on('voice-state', (s) => {
    state.applyState(s);
  });
  on('voice-transcript', (t) => {
    state.applyTranscript(t);
  });
  on('voice-speech', (d) => {
    state.applySpeech(d.voiceSessionId, d.speaking);
  });
  on('voice-error', (e) => {
    state.applyError(e);
  });
  on('voice-unit', (u) => {
    state.applyUnit(u, app.session?.items);
  });
  on('voice-question', (q) => {
    state.applyQuestion(q);
  });
}

export function effects({ on, transport }: FeatureContext): void {
  on('snapshot', () => void resyncVoice(transport)); // a reconnect: the session may have ended meanwhile
  on('voice-state', (s) => {
    // The reducer ended this console's session: the microphone and the player close too.
    if ((s.state === 'stopped' || s.state === 'failed') && !voice.session) void closeAudio();
  });
  on('voice-speech', (d) => {
    // The user talks over the interviewer: its voice stops (the server cancels the response).
    if (d.speaking && voice.session?.voiceSessionId === d.voiceSessionId) stopReply();
  });
  on('voice-audio', (d) => {
    if (voice.session?.voiceSessionId === d.voiceSessionId && voice.spokenReplies && voice.talking && d.pcm) playReply(d.pcm);
  });
}

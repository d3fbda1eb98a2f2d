package app

import (
	"fixthis/app/events"
	"fixthis/app/voice"
)

// voiceEvents publishes what a voice session reports as console events. Every
// voice event goes out here and nowhere else.
type voiceEvents struct{ bus *events.Bus }

func (e voiceEvents) State(s voice.Session)         { e.bus.Publish(events.VoiceState, s) }
func (e voiceEvents) Transcript(t voice.Transcript) { e.bus.Publish(events.VoiceTranscript, t) }
func (e voiceEvents) Speech(s voice.Speech)         { e.bus.Publish(events.VoiceSpeech, s) }
func (e voiceEvents) Audio(a voice.Audio)           { e.bus.Publish(events.VoiceAudio, a) }
func (e voiceEvents) Error(ev voice.ErrorEvent)     { e.bus.Publish(events.VoiceError, ev) }

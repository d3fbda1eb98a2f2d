package app

import (
	"fixthis/app/events"
	"fixthis/app/voice"
)

// voiceEvents publishes what a voice session reports as console events. Every
// voice event goes out here and nowhere else.
type voiceEvents struct{ bus *events.Bus }

func (e voiceEvents) State(s voice.Session)         { voice.StateEvent.Publish(e.bus, s) }
func (e voiceEvents) Transcript(t voice.Transcript) { voice.TranscriptEvent.Publish(e.bus, t) }
func (e voiceEvents) Speech(s voice.Speech)         { voice.SpeechEvent.Publish(e.bus, s) }
func (e voiceEvents) Audio(a voice.Audio)           { voice.AudioEvent.Publish(e.bus, a) }
func (e voiceEvents) Error(ev voice.ErrorEvent)     { voice.ErrorEventDef.Publish(e.bus, ev) }
func (e voiceEvents) Unit(u voice.Unit)             { voice.UnitEvent.Publish(e.bus, u) }
func (e voiceEvents) Question(q voice.Question)     { voice.QuestionEvent.Publish(e.bus, q) }

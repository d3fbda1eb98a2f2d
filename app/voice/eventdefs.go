package voice

import "fixthis/app/events"

// The events a voice session publishes, each bound to its payload (see app/events).
var (
	// StateEvent carries the session on every change, failures included.
	StateEvent = events.Define[Session](events.VoiceState)
	// TranscriptEvent carries a partial or final line of either speaker.
	TranscriptEvent = events.Define[Transcript](events.VoiceTranscript)
	// SpeechEvent says the user started or stopped speaking.
	SpeechEvent = events.Define[Speech](events.VoiceSpeech)
	// AudioEvent carries the interviewer's spoken reply.
	// It is live only: a reconnecting console has no use for a reply that already
	// played, and the chunks would crowd the replay history out.
	AudioEvent = events.DefineLive[Audio](events.VoiceAudio)
	// ErrorEventDef carries an error from the interviewer's server.
	ErrorEventDef = events.Define[ErrorEvent](events.VoiceError)
	// UnitEvent says a unit tool call was handled: which item the unit became.
	UnitEvent = events.Define[Unit](events.VoiceUnit)
	// QuestionEvent says an agent's question reached the interviewer.
	QuestionEvent = events.Define[Question](events.VoiceQuestion)
)

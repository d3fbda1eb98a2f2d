package voice

import "time"

// State is where a voice session stands.
type State string

// The states of a voice session (docs/api.md, VoiceSession.state).
const (
	StateConnecting   State = "connecting"
	StateListening    State = "listening"
	StateReconnecting State = "reconnecting"
	StateStopped      State = "stopped"
	StateFailed       State = "failed"
)

// States lists every state, for the generated console types.
var States = []State{StateConnecting, StateListening, StateReconnecting, StateStopped, StateFailed}

// Role says who spoke a transcript line.
type Role string

// The two speakers.
const (
	RoleRiffer      Role = "riffer"      // the user
	RoleInterviewer Role = "interviewer" // the model
)

// Session is one voice session as the console sees it: the body of the voice routes
// and the payload of voice-state.
type Session struct {
	VoiceSessionID string    `json:"voiceSessionId"`
	SessionID      string    `json:"sessionId"`
	Serial         string    `json:"serial"`
	State          State     `json:"state"`
	Muted          bool      `json:"muted"`
	SpokenReplies  bool      `json:"spokenReplies"`
	StartedAt      time.Time `json:"startedAt"`
	// Holder names the console that holds the session ("the desktop window", …).
	Holder  string `json:"holder"`
	Message string `json:"message,omitempty"`
	// ErrorCode is the console API error code of a failure (voice_key_refused, …).
	ErrorCode string `json:"errorCode,omitempty"`
}

// Transcript is the payload of voice-transcript: a partial line (Final false)
// replaces the live line, a final one appends a row.
type Transcript struct {
	VoiceSessionID string `json:"voiceSessionId"`
	Role           Role   `json:"role"`
	Text           string `json:"text"`
	Final          bool   `json:"final"`
	TurnID         string `json:"turnId"`
}

// Speech is the payload of voice-speech: the interviewer's server heard the user
// start or stop speaking.
type Speech struct {
	VoiceSessionID string `json:"voiceSessionId"`
	Speaking       bool   `json:"speaking"`
}

// Audio is the payload of voice-audio: base64 PCM16 mono 24 kHz of the
// interviewer's reply, sent only while spoken replies are on.
type Audio struct {
	VoiceSessionID string `json:"voiceSessionId"`
	ResponseID     string `json:"responseId"`
	PCM            string `json:"pcm"`
}

// ErrorEvent is the payload of voice-error: an error event from upstream. The
// session survives it.
type ErrorEvent struct {
	VoiceSessionID string `json:"voiceSessionId"`
	Code           string `json:"code"`
	Message        string `json:"message"`
}

// Status is the body of GET /api/voice. It never carries the key.
type Status struct {
	KeySet            bool      `json:"keySet"`
	KeySource         KeySource `json:"keySource"`
	KeychainAvailable bool      `json:"keychainAvailable"`
	Model             string    `json:"model"`
	Voice             string    `json:"voice"`
	Active            *Session  `json:"active"`
}

// Sink is how a voice session tells consoles what happens. The app publishes each
// call as one event on its bus.
type Sink interface {
	State(Session)
	Transcript(Transcript)
	Speech(Speech)
	Audio(Audio)
	Error(ErrorEvent)
}

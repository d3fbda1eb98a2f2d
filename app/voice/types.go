package voice

import "time"

// State is where a voice session stands.
type State string

// The states of a voice session (docs/api-voice.md, VoiceSession.state).
const (
	StateConnecting   State = "connecting"
	StateListening    State = "listening"
	StateReconnecting State = "reconnecting"
	StateStopped      State = "stopped"
	StateFailed       State = "failed"
)

// States lists every state, for the generated console types.
var States = []State{StateConnecting, StateListening, StateReconnecting, StateStopped, StateFailed}

// Mode says when the items a voice session's units became are handed off to the
// agent.
type Mode string

// The three modes (docs/api-voice.md, VoiceSession.mode).
const (
	// ModeInstant hands off each unit as it is recorded.
	ModeInstant Mode = "instant"
	// ModeSmart hands off at a checkpoint: 4 s of silence after speech, the target
	// app's activity changed, or the user's Save to MCP.
	ModeSmart Mode = "smart"
	// ModeCollect keeps drafts until the user's Save to MCP.
	ModeCollect Mode = "collect"
)

// Modes lists every mode, for validation and the generated console types.
var Modes = []Mode{ModeInstant, ModeSmart, ModeCollect}

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
	Mode           Mode      `json:"mode,omitempty"` // always set: smart unless chosen
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

// UnitAction is what handling a unit tool call did.
type UnitAction string

// The unit actions of voice-unit.
const (
	UnitRecorded  UnitAction = "recorded"
	UnitUpdated   UnitAction = "updated"
	UnitWithdrawn UnitAction = "withdrawn"
	UnitRefused   UnitAction = "refused"
)

// UnitActions lists every action, for the generated console types.
var UnitActions = []UnitAction{UnitRecorded, UnitUpdated, UnitWithdrawn, UnitRefused}

// Unit is the payload of voice-unit: a unit tool call was handled. The item it
// made is stored before this is published; the item itself reaches consoles by
// the usual session events. ItemID and SequenceNumber are empty and 0 when a
// refused call made no item; Reason says why it was refused.
type Unit struct {
	VoiceSessionID string     `json:"voiceSessionId"`
	UnitID         string     `json:"unitId"`
	ItemID         string     `json:"itemId"`
	SequenceNumber int        `json:"sequenceNumber"`
	Statement      string     `json:"statement"`
	Excerpt        string     `json:"excerpt"`
	Action         UnitAction `json:"action"`
	Reason         string     `json:"reason,omitempty"`
}

// Question is the payload of voice-question: the coding agent's question about a
// unit's item was queued for the interviewer as an [ENDPOINT QUESTION] note.
type Question struct {
	VoiceSessionID string `json:"voiceSessionId"`
	UnitID         string `json:"unitId"`
	ItemID         string `json:"itemId"`
	Question       string `json:"question"`
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
	Unit(Unit)
	Question(Question)
}

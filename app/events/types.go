package events

// Type names an event on the bus and on the console's SSE stream. The console's
// TypeScript union of event names is generated from this list (see app/wire).
type Type string

// Every event the server sends. The payload type of each is named beside it; the
// console's wire types are generated from those structs.
const (
	// Snapshot is the first event of every stream: app.Snapshot.
	Snapshot Type = "snapshot"
	// ReplayOverflow tells a client it fell too far behind to replay: refetch state.
	ReplayOverflow Type = "replay-overflow"
	// DevicesUpdated carries device.List after any device or selection change.
	DevicesUpdated Type = "devices-updated"
	// PreviewReady announces a new live frame: device.PreviewFrame.
	PreviewReady Type = "preview-ready"
	// PreviewStatusChanged carries device.PreviewStatusEvent when the preview's state moves.
	PreviewStatusChanged Type = "preview-status"
	// SessionUpdated carries one session in full (app.SessionUpdate).
	SessionUpdated Type = "session-updated"
	// SessionsUpdated carries a session's summary or its deletion (app.SessionsUpdate).
	SessionsUpdated Type = "sessions-updated"
	// AgentPresence carries store.Presence for one session.
	AgentPresence Type = "agent"
	// DeviceAction carries store.DeviceAction: an agent tapped, typed, captured, ….
	DeviceAction Type = "device-action"
	// AgentControl carries agentdevice.ControlState for the selected device.
	AgentControl Type = "agent-control"
	// AppUpdated carries appwatch.Doc when the app's install or focus changes.
	AppUpdated Type = "app-updated"
	// AppRunProgress carries appwatch.RunProgress while a build-install-launch runs.
	AppRunProgress Type = "app-run-progress"
	// AppRunFinished carries appwatch.RunFinished when it ends.
	AppRunFinished Type = "app-run-finished"
	// VoiceState carries voice.Session on every change of a voice session, failures included.
	VoiceState Type = "voice-state"
	// VoiceTranscript carries voice.Transcript: a partial or final line of either speaker.
	VoiceTranscript Type = "voice-transcript"
	// VoiceSpeech carries voice.Speech when the user starts or stops speaking.
	VoiceSpeech Type = "voice-speech"
	// VoiceAudio carries voice.Audio: the interviewer's spoken reply, while spoken replies are on.
	VoiceAudio Type = "voice-audio"
	// VoiceError carries voice.ErrorEvent: an error from the interviewer's server; the session survives.
	VoiceError Type = "voice-error"
)

// All lists every event type, for the generated console types and the docs.
var All = []Type{Snapshot, ReplayOverflow, DevicesUpdated, PreviewReady, PreviewStatusChanged, SessionUpdated,
	SessionsUpdated, AgentPresence, DeviceAction, AgentControl, AppUpdated, AppRunProgress, AppRunFinished,
	VoiceState, VoiceTranscript, VoiceSpeech, VoiceAudio, VoiceError}

package events

// Type names an event on the bus and on the console's SSE stream. The console's
// TypeScript union of event names is generated from this list (see app/wire).
type Type string

// Every event the server sends. Each is published through one Def (see def.go),
// declared beside its payload type in the package named here; the console's
// EventPayloads map is generated from those Defs.
const (
	// Snapshot is the first event of every stream: app.SnapshotEvent (app.Snapshot).
	Snapshot Type = "snapshot"
	// ReplayOverflow tells a client it fell too far behind to replay, so it refetches
	// state: app.ReplayOverflowEvent (Empty).
	ReplayOverflow Type = "replay-overflow"
	// DevicesUpdated follows any device or selection change: device.DevicesUpdatedEvent (device.List).
	DevicesUpdated Type = "devices-updated"
	// PreviewReady announces a new live frame: device.PreviewReadyEvent (device.PreviewFrame).
	PreviewReady Type = "preview-ready"
	// PreviewStatusChanged says the preview's state moved: device.PreviewStatusChangedEvent (device.PreviewStatusEvent).
	PreviewStatusChanged Type = "preview-status"
	// SessionUpdated carries one session in full: app.SessionUpdatedEvent (app.SessionUpdate).
	SessionUpdated Type = "session-updated"
	// SessionsUpdated carries a session's summary or its deletion: app.SessionsUpdatedEvent (app.SessionsUpdate).
	SessionsUpdated Type = "sessions-updated"
	// AgentPresence carries one session's agent presence: app.AgentPresenceEvent (store.Presence).
	AgentPresence Type = "agent"
	// DeviceAction says an agent tapped, typed, captured, …: app.DeviceActionEvent (store.DeviceAction).
	DeviceAction Type = "device-action"
	// AgentControl carries the selected device's answer: app.AgentControlEvent (agentdevice.ControlState).
	AgentControl Type = "agent-control"
	// TargetAppUpdated follows a change of the target app's install or focus: targetwatch.UpdatedEvent (targetwatch.Doc).
	TargetAppUpdated Type = "target-app-updated"
	// TargetAppRunProgress reports a build-install-launch as it runs: targetwatch.RunProgressEvent (targetwatch.RunProgress).
	TargetAppRunProgress Type = "target-app-run-progress"
	// TargetAppRunFinished says how it ended: targetwatch.RunFinishedEvent (targetwatch.RunFinished).
	TargetAppRunFinished Type = "target-app-run-finished"
	// DisplayChanged says a phone's display settings were changed or restored, by the
	// console, an agent or a deselect: display.ChangedEvent (display.Changed).
	DisplayChanged Type = "display-changed"
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
	// VoiceUnit carries voice.Unit: a unit tool call was handled (the item it made is stored).
	VoiceUnit Type = "voice-unit"
	// VoiceQuestion carries voice.Question: an agent's question was queued for the interviewer.
	VoiceQuestion Type = "voice-question"
)

// All lists every event type, for the generated console types and the docs.
var All = []Type{Snapshot, ReplayOverflow, DevicesUpdated, PreviewReady, PreviewStatusChanged, SessionUpdated,
	SessionsUpdated, AgentPresence, DeviceAction, AgentControl, TargetAppUpdated, TargetAppRunProgress, TargetAppRunFinished,
	DisplayChanged, VoiceState, VoiceTranscript, VoiceSpeech, VoiceAudio, VoiceError, VoiceUnit, VoiceQuestion}

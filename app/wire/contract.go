package wire

import (
	"reflect"

	"fixthis/adb"
	"fixthis/app"
	"fixthis/app/agentdevice"
	"fixthis/app/audit"
	"fixthis/app/device"
	"fixthis/app/display"
	"fixthis/app/errcode"
	"fixthis/app/events"
	"fixthis/app/evidence"
	"fixthis/app/evidence/network"
	"fixthis/app/feedback"
	"fixthis/app/feedbackapi"
	"fixthis/app/httpapi"
	"fixthis/app/source"
	"fixthis/app/store"
	"fixthis/app/talk"
	"fixthis/app/targetrun"
	"fixthis/app/targetwatch"
	"fixthis/app/voice"
	"fixthis/capture"
)

//go:generate go run ./gen ../../frontend/src/lib

// MainFile is the module the console imports; it re-exports the split-off files.
const MainFile = "wire.gen"

func typeOf[T any]() reflect.Type { return reflect.TypeFor[T]() }

// Console is the console API's contract: every body the server sends, every body the
// console sends, every event with its payload, and the enums the console switches on.
var Console = Contract{
	// Every event, in the order of events.All; a test checks none is missing.
	Events: []events.Descriptor{
		app.SnapshotEvent,
		app.ReplayOverflowEvent,
		device.DevicesUpdatedEvent,
		device.PreviewReadyEvent,
		device.PreviewStatusChangedEvent,
		app.SessionUpdatedEvent,
		app.SessionsUpdatedEvent,
		app.AgentPresenceEvent,
		app.DeviceActionEvent,
		app.AgentControlEvent,
		targetwatch.UpdatedEvent,
		targetwatch.RunProgressEvent,
		targetwatch.RunFinishedEvent,
		display.ChangedEvent,
		voice.StateEvent,
		voice.TranscriptEvent,
		voice.SpeechEvent,
		voice.AudioEvent,
		voice.ErrorEventDef,
		voice.UnitEvent,
		voice.QuestionEvent,
	},
	// The store's and the source index's shapes (and the UI node they embed) are a
	// lower layer: they never refer to the app's. So are the target app's (its watch
	// and its runs). Runtime evidence has a file of its own, which keeps each
	// generated file under 500 lines.
	Split: map[string]string{
		"fixthis/app/store":            "wire.store.gen",
		"fixthis/app/source":           "wire.store.gen",
		"fixthis/internal/sidekick":    "wire.store.gen",
		"fixthis/app/evidence":         "wire.evidence.gen",
		"fixthis/app/evidence/network": "wire.evidence.gen",
		"fixthis/app/voice":            "wire.voice.gen",
		"fixthis/app/display":          "wire.display.gen",
		"fixthis/app/audit":            "wire.audit.gen",
		"fixthis/app/feedback":         "wire.feedback.gen",
		"fixthis/app/feedbackapi":      "wire.feedback.gen",
		"fixthis/app/targetwatch":      "wire.targetapp.gen",
		"fixthis/app/targetrun":        "wire.targetapp.gen",
	},
	Roots: []reflect.Type{
		typeOf[app.Health](),
		typeOf[app.Snapshot](),
		typeOf[httpapi.ErrorBody](),
		typeOf[httpapi.OK](),
		typeOf[device.List](),
		typeOf[app.DeviceSelection](),
		typeOf[device.PreviewDoc](),
		typeOf[device.PreviewStatusEvent](),
		typeOf[device.FreezeResult](),
		typeOf[app.StageHeight](),
		typeOf[app.ClipRequest](),
		typeOf[app.ClipResponse](),
		typeOf[app.RecordingRequest](),
		typeOf[app.RecordingResponse](),
		typeOf[device.VideoConfig](),
		typeOf[feedbackapi.SessionList](),
		typeOf[feedbackapi.SessionDoc](),
		typeOf[app.SessionUpdate](),
		typeOf[app.SessionsUpdate](),
		typeOf[feedbackapi.ItemDoc](),
		typeOf[feedbackapi.Deleted](),
		typeOf[store.SaveBatchResult](),
		typeOf[feedbackapi.AgentHandoff](),
		typeOf[feedbackapi.HandoffPreview](),
		typeOf[feedbackapi.ItemSources](),
		typeOf[app.ConnectInfo](),
		typeOf[store.Presence](),
		typeOf[targetwatch.Doc](),
		typeOf[targetwatch.RunStarted](),
		typeOf[targetwatch.RunProgress](),
		typeOf[targetwatch.RunFinished](),
		typeOf[targetrun.Result](),
		typeOf[app.DeviceActionList](),
		typeOf[store.DeviceAction](),
		typeOf[agentdevice.ControlState](),
		typeOf[feedbackapi.EvidenceDoc](),
		typeOf[feedbackapi.NetworkDoc](),
		typeOf[store.EvidenceRecord](),
		typeOf[app.DisplaySettings](),
		typeOf[feedback.AuditResult](),
		// What the console sends.
		typeOf[app.DeviceSelectRequest](),
		typeOf[app.FreezeRequest](),
		typeOf[app.TapRequest](),
		typeOf[device.PaintReport](),
		typeOf[feedbackapi.NewSessionRequest](),
		typeOf[store.SessionUpdate](),
		typeOf[feedbackapi.BatchRequest](),
		typeOf[feedbackapi.ItemUpdateRequest](),
		typeOf[feedbackapi.AnswerRequest](),
		typeOf[feedbackapi.ResolveRequest](),
		typeOf[feedbackapi.VerdictRequest](),
		typeOf[app.AgentControlRequest](),
		typeOf[app.DisplayChangeRequest](),
		typeOf[app.DisplayRestoreRequest](),
		typeOf[feedbackapi.HandoffRequest](),
		typeOf[feedbackapi.HandoffPreviewRequest](),
		typeOf[feedbackapi.DismissRequest](),
		typeOf[feedbackapi.SizeCheckRequest](),
		typeOf[voice.Status](),
		typeOf[voice.Session](),
		typeOf[voice.Transcript](),
		typeOf[voice.Speech](),
		typeOf[voice.Audio](),
		typeOf[voice.ErrorEvent](),
		typeOf[voice.Unit](),
		typeOf[voice.Question](),
		typeOf[talk.VoiceAnchor](),
		typeOf[talk.VoiceStartRequest](),
		typeOf[talk.VoiceUpdateRequest](),
	},
	Names: map[reflect.Type]string{
		typeOf[device.View]():             "Device",
		typeOf[device.List]():             "DeviceList",
		typeOf[device.PreviewDoc]():       "Preview",
		typeOf[device.FreezeResult]():     "Freeze",
		typeOf[capture.Node]():            "UiNode",
		typeOf[capture.Window]():          "ScreenWindow",
		typeOf[audit.Finding]():           "AuditFinding",
		typeOf[source.Candidate]():        "SourceCandidate",
		typeOf[source.Readiness]():        "SourcesReason",
		typeOf[store.Bounds]():            "TargetBounds",
		typeOf[adb.Screen]():              "DeviceScreen",
		typeOf[store.SaveBatchResult]():   "BatchResponse",
		typeOf[errcode.Code]():            "ErrorCode",
		typeOf[events.Type]():             "EventType",
		typeOf[evidence.Attempt]():        "EvidenceAttempt",
		typeOf[evidence.Attachment]():     "EvidenceAttachment",
		typeOf[evidence.Kind]():           "EvidenceKind",
		typeOf[evidence.Status]():         "EvidenceStatus",
		typeOf[evidence.Reason]():         "EvidenceReason",
		typeOf[network.Request]():         "NetworkRequest",
		typeOf[targetwatch.Doc]():         "TargetAppDoc",
		typeOf[display.State]():           "DisplayState",
		typeOf[display.Changed]():         "DisplayChanged",
		typeOf[targetwatch.RunProgress](): "TargetAppRunProgress",
		typeOf[targetwatch.RunFinished](): "TargetAppRunFinished",
		typeOf[targetwatch.RunStarted]():  "TargetAppRunStarted",
		typeOf[targetwatch.RunState]():    "TargetAppRunState",
		typeOf[targetrun.Result]():        "TargetAppRunResult",
		typeOf[targetrun.Progress]():      "TargetAppProgress",
		typeOf[targetrun.Stage]():         "TargetAppRunStage",
		typeOf[events.Empty]():            "EmptyPayload",
		typeOf[store.SessionUpdate]():     "SessionPatch",
		typeOf[voice.Status]():            "VoiceStatus",
		typeOf[voice.Session]():           "VoiceSession",
		typeOf[voice.Transcript]():        "VoiceTranscript",
		typeOf[voice.Speech]():            "VoiceSpeech",
		typeOf[voice.Audio]():             "VoiceAudio",
		typeOf[voice.ErrorEvent]():        "VoiceError",
		typeOf[voice.State]():             "VoiceState",
		typeOf[voice.Role]():              "VoiceRole",
		typeOf[voice.KeySource]():         "VoiceKeySource",
		typeOf[voice.Mode]():              "VoiceMode",
		typeOf[voice.Unit]():              "VoiceUnit",
		typeOf[voice.UnitAction]():        "VoiceUnitAction",
		typeOf[voice.Question]():          "VoiceQuestion",
	},
	Enums: []Enum{
		{typeOf[events.Type](), strs(events.All)},
		{typeOf[errcode.Code](), strs(errcode.Codes())},
		{typeOf[app.Mode](), []string{string(app.ModeDesktop), string(app.ModeServe)}},
		{typeOf[device.PreviewState](), []string{string(device.StateLive), string(device.StateFrozen),
			string(device.StateBlocked), string(device.StateNoDevice), string(device.StateStale)}},
		{typeOf[evidence.Kind](), strs(evidence.Kinds)},
		{typeOf[evidence.Status](), []string{string(evidence.StatusComplete), string(evidence.StatusPartial),
			string(evidence.StatusFailed), string(evidence.StatusUnsupported), string(evidence.StatusSkipped)}},
		{typeOf[evidence.Reason](), strs(evidence.Reasons)},
		{typeOf[targetrun.Stage](), strs(targetrun.Stages)},
		{typeOf[source.Readiness](), strs(source.Readinesses)},
		{typeOf[voice.State](), strs(voice.States)},
		{typeOf[voice.Role](), []string{string(voice.RoleRiffer), string(voice.RoleInterviewer)}},
		{typeOf[voice.KeySource](), strs(voice.KeySources)},
		{typeOf[voice.Mode](), strs(voice.Modes)},
		{typeOf[voice.UnitAction](), strs(voice.UnitActions)},
		{typeOf[device.BlockReason](), []string{string(device.ReasonScreenOff), string(device.ReasonKeyguard),
			string(device.ReasonDeviceGone), string(device.ReasonCaptureFailed)}},
		{typeOf[store.SessionStatus](), strs(store.SessionStatuses)},
		{typeOf[store.EvidencePolicy](), strs(store.EvidencePolicies)},
		{typeOf[store.Pickup](), strs(store.Pickups)},
		{typeOf[store.Delivery](), strs(store.Deliveries)},
		{typeOf[store.ItemStatus](), strs(store.ItemStatuses)},
		{typeOf[store.Phase](), strs(store.Phases)},
		{typeOf[store.ResolvedBy](), strs(store.ResolvedBys)},
		{typeOf[store.Severity](), strs(store.Severities)},
		{typeOf[store.TargetType](), strs(store.TargetTypes)},
		{typeOf[store.EvidenceTrigger](), strs(store.EvidenceTriggers)},
		{typeOf[store.SkipReason](), strs(store.SkipReasons)},
		{typeOf[store.PresenceState](), strs(store.PresenceStates)},
		{typeOf[feedbackapi.ResolveStatus](), strs(feedbackapi.ResolveStatuses)},
		{typeOf[capture.WindowType](), strs(capture.WindowTypes)},
		{typeOf[source.IndexSource](), strs(source.IndexSources)},
	},
	OpenStrings: []reflect.Type{
		typeOf[adb.State](),      // adb's ConnectionState grows with adb releases
		typeOf[network.Source](), // the log formats the network reader knows today
	},
}

func strs[T ~string](vals []T) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = string(v)
	}
	return out
}

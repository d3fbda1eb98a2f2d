package wire

import (
	"reflect"

	"fixthis/adb"
	"fixthis/app"
	"fixthis/app/device"
	"fixthis/app/errcode"
	"fixthis/app/events"
	"fixthis/app/source"
	"fixthis/app/store"
	"fixthis/capture"
)

//go:generate go run ./gen ../../frontend/src/lib/wire.gen.ts

func typeOf[T any]() reflect.Type { return reflect.TypeFor[T]() }

// Console is the console API's contract: every body the server sends, every event
// payload, and the enums the console switches on.
var Console = Contract{
	Roots: []reflect.Type{
		typeOf[app.Health](),
		typeOf[app.Snapshot](),
		typeOf[app.ErrorBody](),
		typeOf[app.OK](),
		typeOf[device.List](),
		typeOf[app.DeviceSelection](),
		typeOf[device.PreviewDoc](),
		typeOf[device.PreviewStatusEvent](),
		typeOf[device.FreezeResult](),
		typeOf[app.StageHeight](),
		typeOf[device.VideoConfig](),
		typeOf[app.SessionList](),
		typeOf[app.SessionDoc](),
		typeOf[app.SessionUpdate](),
		typeOf[app.SessionsUpdate](),
		typeOf[app.ItemDoc](),
		typeOf[app.Deleted](),
		typeOf[store.SaveBatchResult](),
		typeOf[app.AgentHandoff](),
		typeOf[app.HandoffPreview](),
		typeOf[app.ItemSources](),
		typeOf[app.ConnectInfo](),
		typeOf[store.Presence](),
	},
	Names: map[reflect.Type]string{
		typeOf[device.View]():           "Device",
		typeOf[device.List]():           "DeviceList",
		typeOf[device.PreviewDoc]():     "Preview",
		typeOf[device.FreezeResult]():   "Freeze",
		typeOf[capture.Node]():          "UiNode",
		typeOf[source.Candidate]():      "SourceCandidate",
		typeOf[store.Bounds]():          "TargetBounds",
		typeOf[adb.Screen]():            "DeviceScreen",
		typeOf[store.SaveBatchResult](): "BatchResponse",
		typeOf[errcode.Code]():          "ErrorCode",
		typeOf[events.Type]():           "EventType",
	},
	Enums: []Enum{
		{typeOf[events.Type](), strs(events.All)},
		{typeOf[errcode.Code](), strs(errcode.Codes())},
		{typeOf[app.Mode](), []string{string(app.ModeDesktop), string(app.ModeServe)}},
		{typeOf[device.PreviewState](), []string{string(device.StateLive), string(device.StateFrozen),
			string(device.StateBlocked), string(device.StateNoDevice), string(device.StateStale)}},
		{typeOf[device.BlockReason](), []string{string(device.ReasonScreenOff), string(device.ReasonKeyguard),
			string(device.ReasonDeviceGone), string(device.ReasonCaptureFailed)}},
	},
	FieldEnums: []FieldEnum{
		{typeOf[store.Item](), "Severity", []string{store.SeverityHigh, store.SeverityMed, store.SeverityLow}},
		{typeOf[store.Item](), "Delivery", []string{store.DeliveryDraft, store.DeliverySent}},
		{typeOf[store.Item](), "Status", []string{store.StatusOpen, store.StatusReady, store.StatusInProgress,
			store.StatusNeedsClarification, store.StatusWontFix, store.StatusResolved}},
		{typeOf[store.Item](), "Phase", []string{store.PhaseDraft, store.PhaseSent, store.PhaseSentModified,
			store.PhaseInProgress, store.PhaseNeedsClarify, store.PhaseWontFix, store.PhaseResolved}},
		{typeOf[store.Item](), "ResolvedBy", []string{"", store.ResolvedByAgent, store.ResolvedByUser}},
		{typeOf[store.Target](), "Type", []string{store.TargetNode, store.TargetArea, store.TargetScreen}},
		{typeOf[store.SessionSummary](), "Status", []string{store.SessionOpen, store.SessionClosed}},
		{typeOf[store.SessionSummary](), "RuntimeEvidencePolicy", []string{store.PolicyAuto, store.PolicyManual, store.PolicyOff}},
		{typeOf[store.Presence](), "Presence", []string{store.PresenceListening, store.PresenceWorking, store.PresenceAway, store.PresenceNone}},
	},
}

func strs[T ~string](vals []T) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = string(v)
	}
	return out
}

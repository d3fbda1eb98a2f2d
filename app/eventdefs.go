package app

import (
	"fixthis/app/agentdevice"
	"fixthis/app/events"
	"fixthis/app/store"
)

// The events the app core publishes or writes to a stream itself, each bound to its
// payload (see app/events). The device side and the app watcher declare theirs.
var (
	// SnapshotEvent opens every stream with the whole state.
	SnapshotEvent = events.Define[Snapshot](events.Snapshot)
	// ReplayOverflowEvent tells a stream it fell behind: refetch state.
	ReplayOverflowEvent = events.Define[events.Empty](events.ReplayOverflow)
	// SessionUpdatedEvent carries one session in full.
	SessionUpdatedEvent = events.Define[SessionUpdate](events.SessionUpdated)
	// SessionsUpdatedEvent carries a session's summary or its deletion.
	SessionsUpdatedEvent = events.Define[SessionsUpdate](events.SessionsUpdated)
	// AgentPresenceEvent carries one session's agent presence.
	AgentPresenceEvent = events.Define[store.Presence](events.AgentPresence)
	// DeviceActionEvent says what an agent did on the phone.
	DeviceActionEvent = events.Define[store.DeviceAction](events.DeviceAction)
	// AgentControlEvent carries the selected device's "agents may control" answer.
	AgentControlEvent = events.Define[agentdevice.ControlState](events.AgentControl)
)

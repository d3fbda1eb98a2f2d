package device

import "fixthis/app/events"

// The events the device side publishes, each bound to its payload (see app/events).
var (
	// DevicesUpdatedEvent follows any change of the device list or the selection.
	DevicesUpdatedEvent = events.Define[List](events.DevicesUpdated)
	// PreviewReadyEvent announces a new live frame to fetch by URL.
	PreviewReadyEvent = events.Define[PreviewFrame](events.PreviewReady)
	// PreviewStatusChangedEvent says the preview's state moved (live, frozen, blocked, …).
	PreviewStatusChangedEvent = events.Define[PreviewStatusEvent](events.PreviewStatusChanged)
)

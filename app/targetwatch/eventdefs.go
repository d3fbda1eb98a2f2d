package targetwatch

import "fixthis/app/events"

// The events the target app's watcher publishes, each bound to its payload (see app/events).
var (
	// UpdatedEvent follows a change of the app's install or focus.
	UpdatedEvent = events.Define[Doc](events.TargetAppUpdated)
	// RunProgressEvent reports a build-install-launch as it runs.
	RunProgressEvent = events.Define[RunProgress](events.TargetAppRunProgress)
	// RunFinishedEvent says how the run ended.
	RunFinishedEvent = events.Define[RunFinished](events.TargetAppRunFinished)
)

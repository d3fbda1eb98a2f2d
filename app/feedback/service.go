// Package feedback holds FixThis's use cases on feedback: saving items drawn on a
// frozen screen or spoken in a voice session, handing them off to the agent (Save to
// MCP and the voice modes), collecting runtime evidence for them, and recording the
// target app's build a handoff was made against. HTTP handlers, the voice port and
// the MCP adapters call it; it is built from its dependencies, never from the app.
package feedback

import (
	"log/slog"
	"path/filepath"

	"fixthis/app/device"
	"fixthis/app/display"
	"fixthis/app/handoff"
	"fixthis/app/source"
	"fixthis/app/store"
	"fixthis/app/targetwatch"
	"fixthis/app/voice"
)

// Deps is what the feedback core works with.
type Deps struct {
	Store *store.Store
	// Device is the phone side: frozen frames, captures, the live preview, the
	// selected device.
	Device *device.Service
	// Displays reads the display conditions a screen is saved under.
	Displays *display.Manager
	// Prompts builds the prompts a handoff answers with.
	Prompts *handoff.Builder
	// TargetApp knows the installed build of the user's app.
	TargetApp *targetwatch.Watcher
	// VoiceMode is the mode of a running voice session ("" when none runs), so a
	// unit the instant mode will hand off is noted until it is.
	VoiceMode func(voiceSessionID string) voice.Mode
	// Sources is the running source index, into which a frozen app's own index is
	// merged (nil: none is read).
	Sources *source.Live
	Log     *slog.Logger
}

// Service is the feedback core of one running app.
type Service struct {
	store     *store.Store
	device    *device.Service
	displays  *display.Manager
	prompts   *handoff.Builder
	targetApp *targetwatch.Watcher
	log       *slog.Logger
	voiceMode func(voiceSessionID string) voice.Mode
	// savesInFlight holds the frozen frames a save is running for.
	savesInFlight inFlight
	// pending are the instant-mode units not yet handed off.
	pending pendingHandoffs
	sources *source.Live
	// appIndexReads are the reads of an app's source index a freeze started.
	appIndexReads appIndexReads
	// webViews watch the frozen apps' WebViews until their evidence is collected.
	webViews webViewWatches
}

// New builds the feedback core on d.
func New(d Deps) *Service {
	if d.Log == nil {
		d.Log = slog.Default()
	}
	s := &Service{store: d.Store, device: d.Device, displays: d.Displays, prompts: d.Prompts,
		targetApp: d.TargetApp, voiceMode: d.VoiceMode, log: d.Log, sources: d.Sources}
	if d.Store != nil {
		s.pending.path = filepath.Join(d.Store.Locations().DataDir(), pendingFile)
	}
	return s
}

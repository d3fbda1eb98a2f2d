// Package app is the application core: it wires the device layer, capture, the
// feedback store and the agent loop together and serves them to the console through one
// http.Handler (/api) and to agents through MCP.
package app

import (
	"context"
	"fixthis/adb"
	"fixthis/app/prompt"
	"fixthis/app/store"
	"io/fs"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Mode says how the console reaches the app.
type Mode string

const (
	ModeDesktop Mode = "desktop" // Wails window; /api through the asset server, no token
	ModeServe   Mode = "serve"   // browser on loopback; /api needs the console token
)

// Options configure an App. Everything is passed in explicitly from main.
type Options struct {
	Version    string
	ProjectDir string
	Mode       Mode
	// Console is the built console (frontend/dist) served at "/" in serve mode and by
	// the Wails asset server in desktop mode.
	Console fs.FS
	// Icon is the window icon (PNG).
	Icon   []byte
	Logger *slog.Logger
	// KeepAliveEvery is the SSE keep-alive period (15 s; tests shorten it).
	KeepAliveEvery time.Duration
	// ADB is the adb server client every device operation goes through.
	ADB *adb.Client
	// Demo says when the simulated demo device starts.
	Demo Demo
	// Store is the project's feedback store (.fixthis/fixthis.db).
	Store *store.Store
}

// App is one running FixThis instance.
type App struct {
	version        string
	projectDir     string
	mode           Mode
	console        fs.FS
	icon           []byte
	log            *slog.Logger
	bus            *Bus
	keepAliveEvery time.Duration

	consoleToken string
	mcpToken     string
	mcpURL       string

	adb          *adb.Client
	store        *store.Store
	demo         Demo
	devices      *devices
	preview      *previewLoop
	frozen       *frozenFrames
	sidekicks    *sidekicks
	sources      sourceIndex
	prompts      *prompt.Builder
	presenceSeen presenceWatch
	bg           sync.WaitGroup // background work started by Run

	// watchers counts open /api/events streams; watchersChanged wakes whoever waits
	// for that number to move (the live preview pauses when nobody watches).
	watchers        atomic.Int64
	watchersMu      sync.Mutex
	watchersChanged chan struct{}

	shutdownOnce sync.Once
	shutdown     chan struct{}
}

// New builds an App. It does not start background work; Run does.
func New(opts Options) *App {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.KeepAliveEvery <= 0 {
		opts.KeepAliveEvery = 15 * time.Second
	}
	if opts.Mode == "" {
		opts.Mode = ModeServe
	}
	a := &App{
		version:         opts.Version,
		projectDir:      opts.ProjectDir,
		mode:            opts.Mode,
		console:         opts.Console,
		icon:            opts.Icon,
		log:             opts.Logger,
		bus:             NewBus(2048),
		keepAliveEvery:  opts.KeepAliveEvery,
		consoleToken:    newToken(),
		mcpToken:        newToken(),
		watchersChanged: make(chan struct{}),
		shutdown:        make(chan struct{}),
		adb:             opts.ADB,
		store:           opts.Store,
		demo:            opts.Demo,
	}
	a.devices = newDevices(opts.ADB, a.bus)
	a.preview = newPreviewLoop(a)
	a.frozen = newFrozenFrames(4)
	a.sidekicks = newSidekicks(a)
	a.prompts = &prompt.Builder{Store: opts.Store, Index: a.sources.get}
	a.loadMCPToken()
	return a
}

// Shutdown ends every open event stream so the HTTP server can stop promptly.
func (a *App) Shutdown() {
	a.shutdownOnce.Do(func() { close(a.shutdown) })
}

// notifyWatchers wakes goroutines waiting for the number of console watchers to change.
func (a *App) notifyWatchers() {
	a.watchersMu.Lock()
	close(a.watchersChanged)
	a.watchersChanged = make(chan struct{})
	a.watchersMu.Unlock()
}

// snapshot is the first SSE event: everything the console needs to render.
func (a *App) snapshot(ctx context.Context) (map[string]any, error) {
	dev := a.devices.payload()
	sessions := []store.SessionSummary{}
	if a.store != nil {
		list, err := a.store.ListSessions(ctx)
		if err != nil {
			return nil, err
		}
		sessions = append(sessions, list...)
	}
	var agent *store.Presence
	if len(sessions) > 0 {
		latest := slices.MaxFunc(sessions, func(x, y store.SessionSummary) int { return x.UpdatedAt.Compare(y.UpdatedAt) })
		agent, _ = a.store.GetPresence(ctx, latest.SessionID)
	}
	return map[string]any{
		"sessions":       sessions,
		"agent":          agent,
		"version":        a.version,
		"mode":           a.mode,
		"devices":        dev.Devices,
		"selectedSerial": dev.SelectedSerial,
		"adbServerUp":    dev.ServerUp,
		"adbServerError": dev.ServerError,
		"preview":        a.preview.latest(),
	}, nil
}

// getHealth answers liveness probes and tells the console which version it talks to.
func (a *App) getHealth(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok", "version": a.version})
}

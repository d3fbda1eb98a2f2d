// Package app is the application core: it wires the device service, the feedback
// store, the source index and the agent loop together and serves them to the console
// through one http.Handler (/api, the route table in api.go, handlers in api_<noun>.go)
// and to agents through MCP.
package app

import (
	"context"
	"fixthis/adb"
	"fixthis/app/device"
	"fixthis/app/display"
	"fixthis/app/events"
	"fixthis/app/feedback"
	"fixthis/app/handoff"
	"fixthis/app/source"
	"fixthis/app/store"
	"fixthis/app/targetwatch"
	"fixthis/app/voice"
	"fixthis/capture/video"
	"io/fs"
	"log/slog"
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
	Demo device.Demo
	// Store is the project's feedback store (.fixthis/fixthis.db).
	Store *store.Store
	// Preview is the live preview's transport (--preview auto|h264|jpeg).
	Preview device.VideoMode
	// Video tunes the H.264 stream (tests shorten screenrecord's time limit).
	Video video.Options
	// Voice is where the interviewer lives (OPENAI_BASE_URL, model, voice) and
	// where its key comes from (OPENAI_API_KEY, the OS keychain).
	Voice     voice.Config
	VoiceKeys voice.Keys
	// VoiceSilence is smart mode's silence checkpoint (0: 4 s; tests shorten it).
	VoiceSilence time.Duration
}

// App is one running FixThis instance.
type App struct {
	version        string
	projectDir     string
	mode           Mode
	console        fs.FS
	icon           []byte
	log            *slog.Logger
	bus            *events.Bus
	keepAliveEvery time.Duration

	consoleToken string
	mcpToken     string
	mcpURL       string

	store        *store.Store
	adb          *adb.Client
	device       *device.Service
	targetApp    *targetwatch.Watcher
	sources      *source.Live
	prompts      *handoff.Builder
	presenceSeen presenceWatch
	voice        *voice.Manager
	displays     *display.Manager
	// feedback holds the use cases (saves, handoffs, runtime evidence) the
	// handlers, the voice port and the MCP tools share.
	feedback  *feedback.Service
	voicePort *feedback.VoiceUnits
	actionSeq atomic.Int64   // newest device action published to consoles
	bg        sync.WaitGroup // background work started by Run

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
		version:        opts.Version,
		projectDir:     opts.ProjectDir,
		mode:           opts.Mode,
		console:        opts.Console,
		icon:           opts.Icon,
		log:            opts.Logger,
		bus:            events.NewBus(2048),
		keepAliveEvery: opts.KeepAliveEvery,
		consoleToken:   newToken(),
		mcpToken:       newToken(),
		shutdown:       make(chan struct{}),
		store:          opts.Store,
		adb:            opts.ADB,
	}
	a.device = device.New(device.Options{ADB: opts.ADB, Bus: a.bus, Log: opts.Logger, Demo: opts.Demo, Preview: opts.Preview, Video: opts.Video,
		// A kept screen records the conditions it was shown under (built below).
		Conditions: func(ctx context.Context, serial string) *store.DisplayConditions {
			return a.feedback.ScreenConditions(ctx, serial)
		}})
	a.sources = &source.Live{Dir: opts.ProjectDir, Log: opts.Logger}
	if opts.Store != nil {
		a.sources.CachePath = opts.Store.Locations().SourceIndexCache()
	}
	a.prompts = &handoff.Builder{Store: opts.Store, Index: a.sources.Get}
	a.targetApp = targetwatch.New(targetwatch.Options{
		ADB: opts.ADB, Bus: a.bus, Log: opts.Logger, ProjectDir: opts.ProjectDir,
		Selected: a.selectedOnline, Changes: a.device.Registry.Changes, Watched: a.device.Preview.Watched,
		LastEdit: a.sources.LastEdit,
	})
	if opts.Voice.BaseURL == "" {
		opts.Voice = voice.ConfigFromEnv(func(string) string { return "" })
	}
	dataDir := ""
	if opts.Store != nil {
		dataDir = opts.Store.Locations().DataDir()
	}
	a.displays = a.openDisplays()
	a.feedback = feedback.New(feedback.Deps{Store: opts.Store, Device: a.device, Displays: a.displays,
		Prompts: a.prompts, TargetApp: a.targetApp, Sources: a.sources, Log: opts.Logger, VoiceMode: func(id string) voice.Mode {
			if iv, err := a.voice.Get(id); err == nil {
				return iv.Doc().Mode
			}
			return ""
		}})
	a.voicePort = a.feedback.VoiceUnits()
	a.voice = voice.NewManager(voice.Options{Config: opts.Voice, Keys: opts.VoiceKeys, Sink: voiceEvents{a.bus},
		Screen: a.feedback.VoiceScreen(), Units: a.voicePort, Silence: opts.VoiceSilence, Log: opts.Logger, DataDir: dataDir})
	a.loadMCPToken()
	return a
}

// Shutdown ends every open event stream so the HTTP server can stop promptly.
func (a *App) Shutdown() {
	a.shutdownOnce.Do(func() { close(a.shutdown); a.voice.StopAll(); a.feedback.StopWebViewWatches() })
}

// Run starts the background work (the device service, the source index, the store's
// change feed, presence timeouts) and returns at once; everything stops when ctx ends.
// Call Wait to wait for it.
func (a *App) Run(ctx context.Context) {
	a.bg.Add(8)
	go func() { defer a.bg.Done(); a.feedback.ResumeHandoffs(ctx) }()
	go func() {
		defer a.bg.Done()
		// A live voice session's phone keeps its current screen captured, so clicks
		// and spoken units find their node without a capture on their path.
		a.device.KeepCurrentScreen(ctx, func() string {
			if iv := a.voice.Active(); iv != nil {
				return iv.Doc().Serial
			}
			return ""
		}, func(string) {
			if iv := a.voice.Active(); iv != nil {
				iv.Checkpoint("activity") // smart mode hands off when the app moved on
			}
		})
		a.voice.StopAll()
	}()
	go func() { defer a.bg.Done(); a.targetApp.Run(ctx) }()
	go func() { defer a.bg.Done(); a.watchPresenceTimeouts(ctx) }()
	go func() { defer a.bg.Done(); a.sources.Run(ctx) }()
	go func() { defer a.bg.Done(); a.device.Run(ctx) }()
	go func() { defer a.bg.Done(); a.publishStoreChanges(ctx) }()
	go func() { defer a.bg.Done(); a.keepDisplays(ctx) }()
}

// Wait blocks until the background work started by Run has stopped.
func (a *App) Wait() { a.bg.Wait() }

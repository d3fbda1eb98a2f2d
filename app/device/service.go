package device

import (
	"bytes"
	"context"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"fixthis/adb"
	"fixthis/app/errcode"
	"fixthis/app/events"
	"fixthis/app/store"
	"fixthis/capture"
	"fixthis/capture/video"
)

// Options configure a Service.
type Options struct {
	ADB  *adb.Client // every device operation goes through it
	Bus  *events.Bus // devices-updated, preview-ready and preview-status go out on it
	Log  *slog.Logger
	Demo Demo // when the simulated demo device starts
	// Preview is the live preview's transport (--preview); "" means auto.
	Preview VideoMode
	// Video tunes the H.264 stream (tests shorten screenrecord's time limit).
	Video video.Options
	// Conditions reads the display conditions serial shows, for the screens the
	// service keeps (nil: screens are kept without them).
	Conditions func(ctx context.Context, serial string) *store.DisplayConditions
}

// Service is the device side of one running app: the registry, the capturer, the
// live preview and the frozen frames, wired together.
type Service struct {
	adb  *adb.Client
	log  *slog.Logger
	demo Demo

	Registry *Registry
	Capturer *Capturer
	Preview  *Preview
	Video    *Video
	frozen   *Ring[*KeptScreen]
	// conditions reads a phone's display conditions (Options.Conditions).
	conditions func(ctx context.Context, serial string) *store.DisplayConditions
	warm       warmer
	// clipHolds are the recordings consoles started (StartRecording).
	clipHolds clipHolds
	// screens is each phone's current screen (KeepCurrentScreen).
	screens screenCache
}

// New builds a Service; Run starts its background work.
func New(opts Options) *Service {
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	reg := NewRegistry(opts.ADB, opts.Bus)
	reg.Log = opts.Log
	capt := NewCapturer(opts.ADB)
	preview := newPreview(reg, opts.ADB, opts.Bus, opts.Log, capt.sidekicks)
	mode := opts.Preview
	if mode == "" {
		mode = VideoAuto
	}
	vid := newVideo(mode, opts.ADB, preview, opts.Video)
	preview.videoNote = vid.Unavailable
	preview.videoWatched = vid.Watched
	preview.videoOnly = mode == VideoH264
	s := &Service{
		adb:        opts.ADB,
		log:        opts.Log,
		demo:       opts.Demo,
		Registry:   reg,
		Capturer:   capt,
		Preview:    preview,
		Video:      vid,
		frozen:     NewRing(keptFrozenFrames, func(f *KeptScreen) string { return f.ID }),
		conditions: opts.Conditions,
	}
	capt.warm = func(ctx context.Context, serial string) *capture.WarmTree {
		return s.warm.await(ctx, serial, preview.changes.Load)
	}
	return s
}

// Run tracks devices, runs the live preview, the warm tree and the demo device until
// ctx ends.
func (s *Service) Run(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { defer wg.Done(); s.Registry.Run(ctx) }()
	go func() { defer wg.Done(); s.Video.run(ctx) }()
	go func() { defer wg.Done(); s.Preview.Run(ctx) }()
	wg.Add(1)
	go func() { defer wg.Done(); s.runWarm(ctx) }()
	if s.demo != DemoOff {
		wg.Add(1)
		go func() { defer wg.Done(); s.runDemo(ctx) }()
	}
	wg.Wait()
	s.Capturer.Close(context.WithoutCancel(ctx))
}

// Select makes serial FixThis's device and wakes the preview for it.
func (s *Service) Select(serial string) (View, error) {
	v, err := s.Registry.Select(serial)
	if err == nil {
		s.Preview.Poke()
	}
	return v, err
}

// Disconnect is the device chip's ×: it drops FixThis's selection, its sidekick
// connections and its forwards, and nothing else on the adb server.
func (s *Service) Disconnect(ctx context.Context) error {
	if dev, err := s.Registry.Selected(); err == nil {
		s.Capturer.Forget(ctx, dev.Serial)
	}
	return s.Registry.Clear(ctx)
}

// Tap sends a Select-mode click to serial ("" for the selection) as `input tap X Y`.
func (s *Service) Tap(ctx context.Context, serial string, x, y int) error {
	dev, err := s.Registry.Lookup(serial)
	if err != nil {
		return err
	}
	if x < 0 || y < 0 || (dev.Screen != nil && !onScreen(x, y, dev.Screen.Width, dev.Screen.Height)) {
		w, h := 0, 0
		if dev.Screen != nil {
			w, h = dev.Screen.Width, dev.Screen.Height
		}
		return errcode.New(errcode.InvalidInput, "(%d,%d) is outside the %dx%d screen", x, y, w, h)
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	res, err := s.adb.Device(dev.Serial).Shell(ctx, adb.Command("input", "tap", strconv.Itoa(x), strconv.Itoa(y)))
	if err != nil {
		return errcode.Wrap(errcode.TapFailed, err, "tap on %s failed: %v", dev.Serial, err)
	}
	if res.ExitCode != 0 {
		return errcode.New(errcode.TapFailed, "tap on %s failed: input tap exited %d: %s", dev.Serial, res.ExitCode, bytes.TrimSpace(res.Stderr))
	}
	s.Preview.Poke()
	return nil
}

// Image returns the bytes and content type of a kept live (JPEG) or frozen (PNG)
// frame.
func (s *Service) Image(id string) (data []byte, contentType string, ok bool) {
	if jpeg, ok := s.Preview.JPEG(id); ok {
		return jpeg, "image/jpeg", true
	}
	if fr, ok := s.frozen.Get(id); ok {
		if png, err := fr.PNG(); err == nil {
			return png, "image/png", true
		}
	}
	return nil, "", false
}

// ADB is the adb client every device operation goes through.
func (s *Service) ADB() *adb.Client { return s.adb }

// onScreen reports whether (x, y) lies on a w×h panel in any rotation: `wm size` gives
// the panel in its natural orientation, while taps come in the display's current one
// (2400×1080 for a 1080×2400 phone held sideways).
func onScreen(x, y, w, h int) bool {
	return (x < w && y < h) || (x < h && y < w)
}

package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"fixthis/adb"
	"fixthis/app"
	"fixthis/app/desktop"
	"fixthis/app/device"
	"fixthis/app/store"
	"fixthis/app/voice"
	"fixthis/capture/video"
)

// appFlags are shared by the desktop and serve modes.
type appFlags struct {
	projectDir string
	demo       bool
	noDemo     bool
	preview    string
	videoLimit int
	mode       device.VideoMode
}

func (f *appFlags) register(fs *cmdFlags) {
	fs.StringVar(&f.projectDir, "project-dir", "", "Android project whose feedback lives in DIR/.fixthis (default: current directory)")
	fs.BoolVar(&f.demo, "demo", false, "always start the simulated demo device")
	fs.BoolVar(&f.noDemo, "no-demo", false, "never start the simulated demo device")
	fs.StringVar(&f.preview, "preview", "auto", "live preview transport: auto (H.264 video when the device can stream it, else JPEG frames), h264 or jpeg")
	fs.IntVar(&f.videoLimit, "video-time-limit", 180, "seconds each screenrecord run lasts before the video stream restarts it (1-180)")
}

func (f *appFlags) resolve() error {
	if f.demo && f.noDemo {
		return usagef("--demo and --no-demo contradict each other")
	}
	mode, err := device.ParseVideoMode(f.preview)
	if err != nil {
		return usagef("%v", err)
	}
	f.mode = mode
	if f.videoLimit == 0 {
		f.videoLimit = 180 // a command without the flag (doctor)
	}
	if f.videoLimit < 1 || f.videoLimit > 180 {
		return usagef("--video-time-limit %d: want 1 to 180 seconds", f.videoLimit)
	}
	if f.projectDir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return fmt.Errorf("find the current directory: %w", err)
		}
		f.projectDir = launchDir(wd)
	}
	abs, err := filepath.Abs(f.projectDir)
	if err != nil {
		return fmt.Errorf("resolve --project-dir %q: %w", f.projectDir, err)
	}
	st, err := os.Stat(abs)
	if err != nil || !st.IsDir() {
		return fmt.Errorf("--project-dir %s is not a directory", abs)
	}
	f.projectDir = abs
	return nil
}

func runServe(ctx context.Context, env Env, args []string) error {
	f := newFlags("serve", env.Stdout)
	var af appFlags
	af.register(f)
	addr := f.String("addr", "127.0.0.1:0", "loopback address to listen on")
	asJSON := f.Bool("json", false, "print one JSON line with the URL and token once listening")
	if err := parse(f, args); err != nil {
		return err
	}
	if err := af.resolve(); err != nil {
		return err
	}
	return serve(ctx, env, af, *addr, *asJSON, false)
}

// newApp builds the app and its dependencies: the adb client and the project's store.
// The returned cleanup closes what it opened.
func newApp(ctx context.Context, env Env, af appFlags, mode app.Mode) (*app.App, func(), error) {
	level := slog.LevelInfo
	if strings.EqualFold(env.Getenv("FIXTHIS_LOG"), "debug") {
		level = slog.LevelDebug // e.g. every report of what a console paints
	}
	logger := slog.New(slog.NewTextHandler(env.Stderr, &slog.HandlerOptions{Level: level}))
	client, err := adb.NewClient(adb.Options{})
	if err != nil {
		return nil, nil, err
	}
	st, err := store.Open(ctx, af.projectDir, store.Options{})
	if err != nil {
		return nil, nil, fmt.Errorf("open the feedback store in %s: %w", af.projectDir, err)
	}
	lock, err := store.LockApp(st.Locations())
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	demo := device.DemoAuto
	switch {
	case af.demo:
		demo = device.DemoOn
	case af.noDemo:
		demo = device.DemoOff
	}
	a := app.New(app.Options{
		Version:    env.Version,
		ProjectDir: af.projectDir,
		Mode:       mode,
		Console:    env.Console,
		Icon:       env.Icon,
		Logger:     logger,
		ADB:        client,
		Demo:       demo,
		Store:      st,
		Preview:    af.mode,
		Video:      video.Options{TimeLimit: time.Duration(af.videoLimit) * time.Second},
		Voice:      voice.ConfigFromEnv(env.Getenv),
		VoiceKeys:  voice.Keys{Getenv: env.Getenv, Keychain: voice.SystemKeychain{}},
	})
	return a, func() { _ = st.Close(); lock.Release() }, nil
}

// serve runs the console's HTTP server until ctx ends; openBrowser also opens the
// console in the default browser once it listens (the desktop command without a
// window).
func serve(ctx context.Context, env Env, af appFlags, addr string, asJSON, openBrowser bool) error {
	a, cleanup, err := newApp(ctx, env, af, app.ModeServe)
	if err != nil {
		return err
	}
	defer cleanup()
	runCtx, stop := context.WithCancel(ctx)
	defer func() { stop(); a.Wait() }()
	a.Run(runCtx)
	return a.Serve(ctx, addr, func(info app.ServeInfo) {
		if asJSON {
			line, _ := json.Marshal(info)
			fmt.Fprintf(env.Stdout, "%s\n", line)
			return
		}
		fmt.Fprintf(env.Stdout, "FixThis console: %s\n(press Ctrl-C to stop)\n", info.ConsoleURL)
		if openBrowser {
			fmt.Fprintln(env.Stderr, "fixthis: opening the console in your default browser.")
			openInBrowser(ctx, env.Stderr, runtime.GOOS, info.ConsoleURL)
		}
	})
}

func runDesktop(ctx context.Context, env Env, args []string) error {
	f := newFlags("desktop", env.Stdout)
	var af appFlags
	af.register(f)
	if err := parse(f, args); err != nil {
		return err
	}
	if err := af.resolve(); err != nil {
		return err
	}
	if !hasDisplay(env.Getenv) {
		fmt.Fprintf(env.Stderr, "fixthis: no display (%s); serving the console in a browser instead.\n", noDisplayReason)
		return serve(ctx, env, af, "127.0.0.1:0", false, false)
	}
	if !desktop.Available {
		// The window ships as a second program (see windowBinary): hand over to it.
		// Without one (a window program missing from its install, a build without a
		// window such as the macOS download) the console opens in the browser.
		path, split, err := installedWindow()
		switch {
		case split && err == nil:
			return runWindow(path, args)
		case split:
			fmt.Fprintf(env.Stderr, "fixthis: %v.\n", err)
		default:
			fmt.Fprintf(env.Stderr, "fixthis: this build has no desktop window (%s).\n", noWindowReason)
		}
		fmt.Fprintln(env.Stderr, "fixthis: serving the console in your browser instead.")
		return serve(ctx, env, af, "127.0.0.1:0", false, true)
	}
	a, cleanup, err := newApp(ctx, env, af, app.ModeDesktop)
	if err != nil {
		return err
	}
	defer cleanup()
	runCtx, stop := context.WithCancel(ctx)
	defer func() { stop(); a.Wait() }()
	a.Run(runCtx)
	return a.RunDesktop(runCtx)
}

package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"fixthis/app"
)

// appFlags are shared by the desktop and serve modes.
type appFlags struct {
	projectDir string
	demo       bool
	noDemo     bool
}

func (f *appFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.projectDir, "project-dir", "", "Android project whose feedback lives in DIR/.fixthis (default: current directory)")
	fs.BoolVar(&f.demo, "demo", false, "always start the simulated demo device")
	fs.BoolVar(&f.noDemo, "no-demo", false, "never start the simulated demo device")
}

func (f *appFlags) resolve() error {
	if f.demo && f.noDemo {
		return usagef("--demo and --no-demo contradict each other")
	}
	if f.projectDir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return fmt.Errorf("find the current directory: %w", err)
		}
		f.projectDir = wd
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
	f := newFlags("serve", env.Stderr)
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
	return serve(ctx, env, af, *addr, *asJSON)
}

func serve(ctx context.Context, env Env, af appFlags, addr string, asJSON bool) error {
	a := app.New(app.Options{
		Version:    env.Version,
		ProjectDir: af.projectDir,
		Mode:       app.ModeServe,
		Console:    env.Console,
		Logger:     slog.New(slog.NewTextHandler(env.Stderr, nil)),
	})
	return a.Serve(ctx, addr, func(info app.ServeInfo) {
		if asJSON {
			line, _ := json.Marshal(info)
			fmt.Fprintf(env.Stdout, "%s\n", line)
			return
		}
		fmt.Fprintf(env.Stdout, "FixThis console: %s\n(press Ctrl-C to stop)\n", info.ConsoleURL)
	})
}

func runDesktop(ctx context.Context, env Env, args []string) error {
	f := newFlags("desktop", env.Stderr)
	var af appFlags
	af.register(f)
	if err := parse(f, args); err != nil {
		return err
	}
	if err := af.resolve(); err != nil {
		return err
	}
	if env.Getenv("DISPLAY") == "" && env.Getenv("WAYLAND_DISPLAY") == "" {
		fmt.Fprintln(env.Stderr, "fixthis: no display (DISPLAY and WAYLAND_DISPLAY are unset); serving the console in a browser instead.")
		return serve(ctx, env, af, "127.0.0.1:0", false)
	}
	if !app.DesktopAvailable {
		fmt.Fprintln(env.Stderr, "fixthis: this binary has no desktop window (built without the `desktop` tag); serving the console in a browser instead.")
		return serve(ctx, env, af, "127.0.0.1:0", false)
	}
	a := app.New(app.Options{
		Version:    env.Version,
		ProjectDir: af.projectDir,
		Mode:       app.ModeDesktop,
		Console:    env.Console,
		Logger:     slog.New(slog.NewTextHandler(env.Stderr, nil)),
	})
	return a.RunDesktop(ctx)
}

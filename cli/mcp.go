package cli

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"fixthis/app"
	"fixthis/app/handoff"
	"fixthis/app/mcp"
	"fixthis/app/mcpconfig"
	"fixthis/app/source"
	"fixthis/app/store"
)

// runMCP serves the MCP tools on stdio for an agent that spawns FixThis as a sidecar.
// Stdout is the protocol: every log line goes to stderr.
func runMCP(ctx context.Context, env Env, args []string) error {
	f := newFlags("mcp", env.Stdout)
	var af appFlags
	f.StringVar(&af.projectDir, "project-dir", "", "project whose .fixthis store to serve (default: current directory)")
	serial := f.String("serial", "", "device the device tools drive (default: the app's selection, else the only device, else the one the console last selected)")
	if err := parse(f, args); err != nil {
		return err
	}
	if err := af.resolve(); err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(env.Stderr, nil))
	st, err := store.Open(ctx, af.projectDir, store.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	// The sidecar has no device layer; its prompts still carry source candidates.
	var (
		mu     sync.Mutex
		idx    *source.Index
		reason = source.Building
	)
	go func() {
		built, err := source.Build(ctx, af.projectDir)
		mu.Lock()
		defer mu.Unlock()
		if reason = source.ReadinessOf(built, err); reason == source.Ready {
			idx = built
		}
	}()
	b := &handoff.Builder{Store: st, Index: func() (*source.Index, source.Readiness) {
		mu.Lock()
		defer mu.Unlock()
		return idx, reason
	}}
	in := env.Stdin
	if in == nil {
		in = os.Stdin
	}
	// Device tools go to the running app when there is one (one selection, one
	// preview); without it the sidecar drives the device over adb itself.
	loc := st.Locations()
	forward := mcp.NewForwarder(func() (string, string, error) {
		ep, err := app.ReadMCPEndpoint(loc)
		if err == nil {
			err = ep.Live() // a record of a crashed app: no app answers there
		}
		return ep.URL, ep.Token, err
	}, *serial, env.Version)
	phone, closePhone, err := sidecarPhone(st, af.projectDir, *serial, logger)
	if err != nil {
		return err
	}
	defer closePhone()
	return mcp.ServeStdio(ctx, mcp.Deps{Store: st, Prompt: b, Device: phone, Runner: phone, Forward: forward, Version: env.Version, Logger: logger},
		in, env.Stdout, env.Stderr)
}

// runMCPConfig prints or writes the agent configuration for this project.
func runMCPConfig(ctx context.Context, env Env, args []string) error {
	f := newFlags("mcp-config", env.Stdout)
	var af appFlags
	f.StringVar(&af.projectDir, "project-dir", "", "project to configure (default: current directory)")
	target := f.String("target", "", "agent: claude, codex or cursor (required)")
	write := f.Bool("write", false, "write the config into the project instead of printing it")
	http := f.Bool("http", false, "point at the running app's HTTP endpoint instead of a stdio sidecar")
	if err := parse(f, args); err != nil {
		return err
	}
	if _, err := mcpconfig.File(*target); err != nil {
		return usagef("%v", err)
	}
	if err := af.resolve(); err != nil {
		return err
	}
	bin, err := os.Executable()
	if err != nil {
		return err
	}
	if abs, err := filepath.EvalSymlinks(bin); err == nil {
		bin = abs
	}
	ep := mcpconfig.Endpoint{Binary: bin, ProjectDir: af.projectDir}
	if *http {
		loc, _ := store.NewLocations(af.projectDir)
		rec, err := app.ReadMCPEndpoint(loc)
		if err != nil {
			return fmt.Errorf("no MCP endpoint recorded in %s: start `fixthis` or `fixthis serve` in this project first (%v)", loc.DataDir(), err)
		}
		ep.URL, ep.Token = rec.URL, rec.Token
	}
	if !*write {
		text, err := mcpconfig.Render(*target, ep, *http)
		if err != nil {
			return err
		}
		fmt.Fprint(env.Stdout, text)
		return nil
	}
	path, err := mcpconfig.Write(af.projectDir, *target, ep, *http)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "Wrote %s\n", path)
	return nil
}

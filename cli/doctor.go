package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"time"

	"fixthis/adb"
	"fixthis/app"
	"fixthis/app/desktop"
	"fixthis/app/store"
)

// check is one line of `fixthis doctor`.
type check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

// runDoctor says what works and what to do about what does not.
func runDoctor(ctx context.Context, env Env, args []string) error {
	f := newFlags("doctor", env.Stdout)
	var af appFlags
	f.StringVar(&af.projectDir, "project-dir", "", "project to check (default: current directory)")
	asJSON := f.Bool("json", false, "print one JSON document")
	if err := parse(f, args); err != nil {
		return err
	}
	if err := af.resolve(); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	var checks []check
	add := func(c check) { checks = append(checks, c) }

	add(check{Name: "version", OK: true, Detail: env.Version})
	adbPath, adbErr := exec.LookPath("adb")
	if adbErr != nil {
		add(check{Name: "adb", Detail: "the adb binary is not on PATH", Fix: adbInstallFix})
	} else {
		add(check{Name: "adb", OK: true, Detail: adbPath})
	}
	client, err := adb.NewClient(adb.Options{})
	if err != nil {
		add(check{Name: "adb server", Detail: err.Error(), Fix: "fix ANDROID_ADB_SERVER_PORT"})
	} else if err := client.EnsureServer(ctx); err != nil {
		fix := "run `adb start-server` and read its error"
		if adbErr != nil {
			fix = adbInstallFix // nothing to start the server with
		}
		add(check{Name: "adb server", Detail: err.Error(), Fix: fix})
	} else {
		add(check{Name: "adb server", OK: true, Detail: client.Addr()})
		devs, err := client.Devices(ctx)
		switch {
		case err != nil:
			add(check{Name: "devices", Detail: err.Error()})
		case len(devs) == 0:
			add(check{Name: "devices", OK: true, Detail: "none connected; FixThis will start its demo device", Fix: "enable USB debugging on the phone and plug it in"})
		default:
			for _, d := range devs {
				add(check{Name: "device " + d.Serial, OK: d.Online(), Detail: fmt.Sprintf("%s %s", d.State, d.Model), Fix: d.Hint})
				if d.Online() {
					add(videoCheck(ctx, client, d.Serial))
				}
			}
		}
	}
	display := hasDisplay(env.Getenv)
	windowPath, split, windowErr := installedWindow()
	switch {
	case split && windowErr != nil:
		add(check{Name: "desktop window", Detail: windowErr.Error(), Fix: "reinstall FixThis (or `make build`), or use `fixthis serve`"})
	case split && !display:
		add(check{Name: "desktop window", OK: true, Detail: "no display: `fixthis` will serve the console in a browser (window: " + windowPath + ")"})
	case split:
		add(check{Name: "desktop window", OK: true, Detail: "display available; window: " + windowPath})
	case !desktop.Available:
		add(check{Name: "desktop window", OK: true, Detail: "this build has no window; `fixthis` serves the console in a browser", Fix: "build with `make build` for the window"})
	case !display:
		add(check{Name: "desktop window", OK: true, Detail: "no display: `fixthis` will serve the console in a browser"})
	default:
		add(check{Name: "desktop window", OK: true, Detail: "display available"})
	}
	// doctor only looks: a project without FixThis data stays without it.
	loc, _ := store.NewLocations(af.projectDir)
	var st *store.Store
	if store.DataExists(loc) {
		st, err = store.Open(ctx, af.projectDir, store.Options{})
	}
	switch {
	case !store.DataExists(loc):
		add(check{Name: "feedback store", OK: true, Detail: "none yet in " + loc.DataDir() + "; created when FixThis first starts here"})
	case err != nil:
		add(check{Name: "feedback store", Detail: err.Error(), Fix: "make " + af.projectDir + " writable, or pick another --project-dir"})
	default:
		loc := st.Locations()
		add(check{Name: "feedback store", OK: true, Detail: loc.Database()})
		if ep, err := app.ReadMCPEndpoint(loc); err == nil && ep.Live() != nil {
			add(check{Name: "MCP endpoint", OK: true, Detail: ep.URL + " (recorded by an app that is no longer running; the next start replaces it)"})
		} else if err == nil {
			add(check{Name: "MCP endpoint", OK: true, Detail: ep.URL + " (last recorded)"})
		} else if errors.Is(err, os.ErrNotExist) {
			add(check{Name: "MCP endpoint", OK: true, Detail: "none recorded yet; stdio works without it", Fix: "fixthis mcp-config --target claude --write"})
		}
		st.Close()
	}

	healthy := true
	for _, c := range checks {
		healthy = healthy && c.OK
	}
	if *asJSON {
		out, _ := json.Marshal(map[string]any{"ok": healthy, "checks": checks})
		fmt.Fprintf(env.Stdout, "%s\n", out)
	} else {
		for _, c := range checks {
			mark := "ok  "
			if !c.OK {
				mark = "FAIL"
			}
			fmt.Fprintf(env.Stdout, "%s %-16s %s\n", mark, c.Name, c.Detail)
			if c.Fix != "" && !c.OK {
				fmt.Fprintf(env.Stdout, "     → %s\n", c.Fix)
			}
		}
	}
	if !healthy {
		return errors.New("some checks failed (see above)")
	}
	return nil
}

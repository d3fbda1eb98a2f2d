package cli

import (
	"context"
	"debug/buildinfo"
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
)

// commit and buildDate are set at build time with -ldflags "-X fixthis/cli.commit=…
// -X fixthis/cli.buildDate=…" (RFC 3339, UTC). The Makefile passes the commit because
// builds often run with -buildvcs=false; when it is empty the binary's VCS stamp is
// used. The Go and Wails versions always come from the binary's own build info, so
// they cannot drift from what was actually linked.
var commit, buildDate string

// wailsModule is the module whose linked version is reported: only binaries built with
// the desktop tag link it.
const wailsModule = "github.com/wailsapp/wails/v2"

// versionInfo is what `fixthis version --json` prints.
type versionInfo struct {
	Version   string `json:"version"`
	Commit    string `json:"commit,omitempty"`
	Modified  bool   `json:"modified,omitempty"` // built from a tree with uncommitted changes
	BuildDate string `json:"buildDate,omitempty"`
	GoVersion string `json:"goVersion"`
	Wails     string `json:"wailsVersion,omitempty"` // empty: built without the window
	Platform  string `json:"platform"`
}

// readVersionInfo collects the version facts from the running binary.
func readVersionInfo(version string) versionInfo {
	v := versionInfo{
		Version:   version,
		Commit:    commit,
		BuildDate: buildDate,
		GoVersion: runtime.Version(),
		Platform:  runtime.GOOS + "/" + runtime.GOARCH,
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			if v.Commit == "" {
				v.Commit = s.Value
			}
		case "vcs.modified":
			v.Modified = v.Modified || s.Value == "true"
		}
	}
	v.Wails = wailsVersionIn(bi.Deps)
	if v.Wails == "" {
		// A build whose window is a second program reports the Wails that one links.
		if path, split, err := installedWindow(); split && err == nil {
			if bi, err := buildinfo.ReadFile(path); err == nil {
				v.Wails = wailsVersionIn(bi.Deps)
			}
		}
	}
	return v
}

// wailsVersionIn returns the version of Wails among a binary's modules, or "".
func wailsVersionIn(deps []*debug.Module) string {
	for _, dep := range deps {
		if dep.Path != wailsModule {
			continue
		}
		if dep.Replace != nil {
			return dep.Replace.Version
		}
		return dep.Version
	}
	return ""
}

func runVersion(ctx context.Context, env Env, args []string) error {
	f := newFlags("version", env.Stdout)
	asJSON := f.Bool("json", false, "print version, commit, build date, Go and Wails versions as JSON")
	if err := parse(f, args); err != nil {
		return err
	}
	v := readVersionInfo(env.Version)
	if *asJSON {
		out, err := json.Marshal(v)
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "%s\n", out)
		return nil
	}
	fmt.Fprintf(env.Stdout, "fixthis %s\n", v.Version)
	rev := v.Commit
	if rev == "" {
		rev = "unknown"
	} else if v.Modified {
		rev += " (modified)"
	}
	fmt.Fprintf(env.Stdout, "  commit   %s\n", rev)
	if v.BuildDate != "" {
		fmt.Fprintf(env.Stdout, "  built    %s\n", v.BuildDate)
	}
	fmt.Fprintf(env.Stdout, "  go       %s %s\n", v.GoVersion, v.Platform)
	wails := v.Wails
	if _, split, err := installedWindow(); wails == "" && split && err != nil {
		wails = "none (" + err.Error() + ")"
	} else if wails == "" {
		wails = "none (built without the desktop window)"
	}
	fmt.Fprintf(env.Stdout, "  wails    %s\n", wails)
	return nil
}

// Package targetrun builds, installs, launches and confirms the target app (the
// user's Android app): the middle of the edit → build → install → look loop. The CLI
// (`fixthis run`) and the console (POST /api/target-app/run) share Run; both watch it
// through Progress callbacks.
package targetrun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"fixthis/adb"
	"fixthis/app/project"
)

// ErrNotInstalled is wrapped when a launch-only run finds no installed build.
var ErrNotInstalled = errors.New("not installed")

// Stage is one step of a run.
type Stage string

// Stages of a run, in order.
const (
	StageBuild   Stage = "build"
	StageInstall Stage = "install"
	StageLaunch  Stage = "launch"
	StageConfirm Stage = "confirm"
)

// Stages lists them, for the console's generated types.
var Stages = []Stage{StageBuild, StageInstall, StageLaunch, StageConfirm}

// Progress is one step of a run. During the build every Gradle line arrives as
// Line; Fraction is 0..1 when known, -1 when not (a first build of a task).
type Progress struct {
	Stage    Stage   `json:"stage"`
	Message  string  `json:"message,omitempty"`
	Line     string  `json:"line,omitempty"`
	Task     string  `json:"task,omitempty"`
	Tasks    int     `json:"tasks,omitempty"`
	Fraction float64 `json:"fraction"`
}

// Options select what to run and where.
type Options struct {
	Project *project.Project
	Module  string // Gradle path; the first app module when empty
	Variant string // "debug" when empty
	Serial  string
	// NoBuild skips building and installing: launch and confirm only.
	NoBuild bool
	// Reinstall uninstalls the app first (its data on the device goes with it),
	// the way past a signature mismatch.
	Reinstall bool
	// FocusTimeout bounds the wait for the app's window; 15 s when zero.
	FocusTimeout time.Duration
	Progress     func(Progress)
}

// Result is what a run did. Its JSON is `fixthis run --json`'s document.
type Result struct {
	ApplicationID string   `json:"applicationId"`
	Serial        string   `json:"serial"`
	Built         bool     `json:"built"`
	Installed     bool     `json:"installed"`
	LaunchMs      int      `json:"launchMs"`
	Foreground    bool     `json:"foreground"`
	Activity      string   `json:"activity,omitempty"`
	APK           string   `json:"apk,omitempty"`
	Notes         []string `json:"notes,omitempty"`
}

// Run builds the module's variant with the project's wrapper, installs the APK,
// launches the launcher activity and waits until the app's window has focus. A
// failed step ends the run: nothing is installed after a failed build, nothing
// launched after a failed install.
func Run(ctx context.Context, dev Device, opts Options) (Result, error) {
	report := opts.Progress
	if report == nil {
		report = func(Progress) {}
	}
	res := Result{Serial: opts.Serial}
	mod, err := opts.Project.Module(opts.Module)
	if err != nil {
		return res, err
	}
	if mod.LauncherActivity == "" {
		return res, fmt.Errorf("%s has no activity with MAIN and LAUNCHER in src/main/AndroidManifest.xml, so there is nothing to launch", mod.Path)
	}
	v, note, err := mod.Variant(opts.Variant)
	if err != nil {
		return res, err
	}
	if note != "" {
		res.Notes = append(res.Notes, note)
		report(Progress{Stage: StageBuild, Message: note, Fraction: -1})
	}
	res.ApplicationID = v.ApplicationID

	if !opts.NoBuild {
		task := mod.Task(v)
		report(Progress{Stage: StageBuild, Message: "./gradlew " + task, Fraction: 0})
		started := time.Now()
		if err := build(ctx, opts.Project.Dir, task, report); err != nil {
			return res, err
		}
		res.Built = true
		apk, err := findAPK(mod, v, started)
		if err != nil {
			return res, err
		}
		res.APK = apk.Path
		if apk.ApplicationID != "" {
			res.ApplicationID = apk.ApplicationID // what the build really produced
		}
		if opts.Reinstall {
			report(Progress{Stage: StageInstall, Message: "uninstalling " + res.ApplicationID + " (its data goes with it)", Fraction: 0})
			if err := Uninstall(ctx, dev, res.ApplicationID); err != nil {
				return res, err
			}
		}
		if err := Install(ctx, dev, apk.Path, report); err != nil {
			return res, err
		}
		res.Installed = true
	} else {
		pkg, err := resolveInstalled(ctx, dev, mod, v)
		if err != nil {
			return res, err
		}
		res.ApplicationID = pkg
	}

	component := res.ApplicationID + "/" + mod.LauncherActivity
	if mod.LauncherAlias != "" {
		component = res.ApplicationID + "/" + mod.LauncherAlias
	}
	report(Progress{Stage: StageLaunch, Message: "am start " + component, Fraction: -1})
	launch, err := Launch(ctx, dev, component)
	if err != nil {
		return res, err
	}
	res.LaunchMs, res.Activity = launch.TotalMs, launch.Activity

	report(Progress{Stage: StageConfirm, Message: "waiting for " + res.ApplicationID + " to have focus", Fraction: -1})
	timeout := opts.FocusTimeout
	if timeout == 0 {
		timeout = 15 * time.Second
	}
	if err := WaitForeground(ctx, dev, res.ApplicationID, timeout); err != nil {
		return res, err
	}
	res.Foreground = true
	report(Progress{Stage: StageConfirm, Message: res.ApplicationID + " is in front", Fraction: 1})
	return res, nil
}

// resolveInstalled finds the installed package of the variant; a computed suffix
// is resolved by what the device has.
func resolveInstalled(ctx context.Context, dev Device, mod *project.Module, v project.Variant) (string, error) {
	if err := adb.CheckPackage(mod.ApplicationID); err != nil {
		return "", err
	}
	res, err := dev.Shell(ctx, adb.Command("pm", "list", "packages", mod.ApplicationID))
	if err != nil {
		return "", fmt.Errorf("list packages: %w", err)
	}
	pkg := project.InstalledPackage(project.ParsePackageList(string(res.Stdout)), mod, v)
	if pkg == "" {
		return "", fmt.Errorf("%w: %s is not on the device; build and install it first (fixthis run without --no-build, or Run app)", ErrNotInstalled, v.ApplicationID)
	}
	return pkg, nil
}

// findAPK reads the variant's output-metadata.json, or the newest APK written since
// the build started when the variant's folder is not where the scripts suggest
// (flavors set up by a convention plugin).
func findAPK(mod *project.Module, v project.Variant, since time.Time) (APK, error) {
	dir := mod.OutputDir(v)
	if apk, err := readOutputMetadata(dir); err == nil {
		return apk, nil
	}
	apk, err := newestAPK(mod.Dir, v, since.Add(-2*time.Second))
	if err != nil && len(v.Flavors) == 0 {
		apk, err = newestAPKOfType(mod.Dir, v.BuildType, since.Add(-2*time.Second))
	}
	if err != nil {
		return APK{}, fmt.Errorf("the build succeeded but no APK for %s is in %s: %w", v.Name, dir, err)
	}
	return apk, nil
}

// fileExists is a stat that only cares whether a regular file is there.
func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

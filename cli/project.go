package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"fixthis/app/project"
	"fixthis/app/targetrun"
)

// runProject prints the project model: the app modules and what FixThis would
// build, install and launch.
func runProject(ctx context.Context, env Env, args []string) error {
	f := newFlags("project", env.Stdout)
	dir := f.String("project-dir", ".", "Android project (the folder with settings.gradle)")
	asJSON := f.Bool("json", false, "print one JSON document")
	if err := parse(f, args); err != nil {
		return err
	}
	p, err := project.Load(*dir)
	if err != nil {
		return err
	}
	if *asJSON {
		out, _ := json.Marshal(p)
		fmt.Fprintf(env.Stdout, "%s\n", out)
		return nil
	}
	wrapper := "gradlew: yes"
	if !p.Gradlew {
		wrapper = "gradlew: none (fixthis run needs the project's Gradle wrapper)"
	}
	fmt.Fprintf(env.Stdout, "%s\n%s\n", p.Dir, wrapper)
	for _, m := range p.Modules {
		fmt.Fprintf(env.Stdout, "\n%s  (applies %s)\n", m.Path, m.AppliedVia)
		row := func(k, v string) {
			if v != "" {
				fmt.Fprintf(env.Stdout, "  %-18s %s\n", k, v)
			}
		}
		row("applicationId", m.ApplicationID)
		row("namespace", m.Namespace)
		switch {
		case m.DebugSuffixUnresolved:
			row("debug suffix", "computed by the build (read from the device)")
		default:
			row("debug suffix", m.DebugApplicationIDSuffix)
		}
		launcher := m.LauncherActivity
		if m.LauncherAlias != "" {
			launcher += " (via activity-alias " + m.LauncherAlias + ")"
		}
		row("launcher", launcher)
		row("versionName", m.VersionName)
		if m.MinSdk > 0 {
			row("minSdk", fmt.Sprint(m.MinSdk))
		}
		row("flavors", strings.Join(m.Flavors, ", "))
	}
	for _, w := range p.Warnings {
		fmt.Fprintf(env.Stdout, "\nwarning: %s\n", w)
	}
	return nil
}

// runRun builds, installs and launches the app, and confirms it is in front.
func runRun(ctx context.Context, env Env, args []string) error {
	f := newFlags("run", env.Stdout)
	dir := f.String("project-dir", ".", "Android project (the folder with settings.gradle and gradlew)")
	module := f.String("module", "", "application module, e.g. :app (default: the first one)")
	variant := f.String("variant", "debug", "build variant, e.g. debug or freeDebug")
	serial := f.String("serial", "", "device serial (default: the only online device)")
	noBuild := f.Bool("no-build", false, "skip building and installing: launch the installed app and confirm it")
	reinstall := f.Bool("reinstall", false, "uninstall first (the app's data on the device goes with it)")
	asJSON := f.Bool("json", false, "print one JSON document at the end")
	if err := parse(f, args); err != nil {
		return err
	}
	p, err := project.Load(*dir)
	if err != nil {
		return err
	}
	client, err := connectADB(ctx)
	if err != nil {
		return err
	}
	if *serial == "" {
		if *serial, err = onlyOnlineDevice(ctx, client); err != nil {
			return err
		}
	}
	out := newRunPrinter(env.Stderr)
	res, err := targetrun.Run(ctx, client.Device(*serial), targetrun.Options{
		Project: p, Module: *module, Variant: *variant, Serial: *serial,
		NoBuild: *noBuild, Reinstall: *reinstall, Progress: out.progress,
	})
	out.finish()
	if *asJSON {
		doc := map[string]any{
			"applicationId": res.ApplicationID, "serial": res.Serial, "built": res.Built,
			"installed": res.Installed, "launchMs": res.LaunchMs, "foreground": res.Foreground,
		}
		if err != nil {
			doc["error"] = err.Error()
		}
		b, _ := json.Marshal(doc)
		fmt.Fprintf(env.Stdout, "%s\n", b)
	}
	if err != nil {
		var be *targetrun.BuildError
		if errors.As(err, &be) {
			return fmt.Errorf("the build failed; nothing was installed.\n%s", strings.Join(be.Lines, "\n"))
		}
		return err
	}
	if !*asJSON {
		what := "launched"
		if res.Installed {
			what = "installed and launched"
		}
		fmt.Fprintf(env.Stdout, "%s %s on %s in %d ms; it is in front.\n", res.ApplicationID, what, res.Serial, res.LaunchMs)
	}
	return nil
}

// runPrinter shows a run's progress: on a terminal one line that redraws (stage,
// bar or task count, current task); elsewhere Gradle's lines as they come and one
// line per step, for logs and CI.
type runPrinter struct {
	w     io.Writer
	tty   bool
	drawn bool
	last  time.Time
}

func newRunPrinter(w io.Writer) *runPrinter {
	tty := false
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			tty = os.Getenv("TERM") != "dumb"
		}
	}
	return &runPrinter{w: w, tty: tty}
}

func (r *runPrinter) progress(p targetrun.Progress) {
	if !r.tty {
		switch {
		case p.Line != "":
			fmt.Fprintln(r.w, p.Line)
		case p.Message != "":
			fmt.Fprintf(r.w, "fixthis run: %s\n", p.Message)
		}
		return
	}
	// Redraw at most 20 times a second; a finished step always shows.
	if time.Since(r.last) < 50*time.Millisecond && p.Fraction != 1 && p.Message == "" {
		return
	}
	r.last = time.Now()
	status := p.Message
	if p.Stage == targetrun.StageBuild && p.Line != "" {
		status = fmt.Sprintf("%d tasks", p.Tasks)
		if p.Task != "" {
			status += "  " + p.Task
		}
	}
	fmt.Fprintf(r.w, "\r\033[K%-8s %s %s", string(p.Stage), bar(p.Fraction), truncate(status, 60))
	r.drawn = true
}

func (r *runPrinter) finish() {
	if r.drawn {
		fmt.Fprint(r.w, "\r\033[K")
	}
}

// bar draws a 20-cell progress bar, or a row of dots when the fraction is unknown.
func bar(f float64) string {
	if f < 0 {
		return "[" + strings.Repeat("·", 20) + "]"
	}
	n := int(f*20 + 0.5)
	return "[" + strings.Repeat("█", n) + strings.Repeat(" ", 20-n) + "]"
}

func truncate(s string, n int) string {
	if len([]rune(s)) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

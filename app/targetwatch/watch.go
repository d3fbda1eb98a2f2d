// Package targetwatch knows the target app (the user's Android app) on the selected
// device: whether it is installed, which build, whether it is in front. It follows the focused window about
// once a second and pushes a change as an event, runs builds (targetrun) one at a time
// with their progress as events, and brings the app back to the front on request.
// It has no HTTP in it; app/api_target_app.go serves it.
package targetwatch

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"fixthis/adb"
	"fixthis/app/errcode"
	"fixthis/app/events"
	"fixthis/app/project"
	"fixthis/app/targetrun"
)

// Doc is GET /api/target-app and the target-app-updated event's payload.
type Doc struct {
	// Available is false when the project has no Android application module;
	// Problem then says what was looked for.
	Available        bool   `json:"available"`
	Problem          string `json:"problem,omitempty"`
	ApplicationID    string `json:"applicationId"`
	Label            string `json:"label"`
	LauncherActivity string `json:"launcherActivity"`
	Module           string `json:"module"`
	// Gradlew says the project has its Gradle wrapper, which Run app builds with.
	Gradlew     bool   `json:"gradlew"`
	Serial      string `json:"serial"`
	Installed   bool   `json:"installed"`
	VersionName string `json:"versionName,omitempty"`
	VersionCode int    `json:"versionCode,omitempty"`
	// InstalledAt is the package's lastUpdateTime; LastEditAt the newest source file.
	InstalledAt             *time.Time `json:"installedAt,omitempty"`
	LastEditAt              *time.Time `json:"lastEditAt,omitempty"`
	SourcesNewerThanInstall bool       `json:"sourcesNewerThanInstall"`
	Foreground              bool       `json:"foreground"`
	FocusedPackage          string     `json:"focusedPackage"`
	// Running is set while a build-install-launch runs, so a reloaded console shows it.
	Running *RunState `json:"running,omitempty"`
}

// RunState is a run in progress.
type RunState struct {
	RunID string             `json:"runId"`
	Last  targetrun.Progress `json:"last"`
}

// Options configure a Watcher.
type Options struct {
	ADB        *adb.Client
	Bus        *events.Bus
	Log        *slog.Logger
	ProjectDir string
	// Selected returns the selected online device's serial, or "".
	Selected func() string
	// Changes returns a channel closed at the next device change (a new selection).
	Changes func() <-chan struct{}
	// Watched reports whether a console listens; without one the loop does not
	// touch the device (dumpsys costs the phone something every second).
	Watched func() bool
	// LastEdit returns the newest source file's time (zero when unknown).
	LastEdit func() time.Time
	// Every is the focus polling period; 1 s when zero.
	Every time.Duration
}

// Watcher is the app side of one running FixThis.
type Watcher struct {
	opts Options
	log  *slog.Logger
	poke chan struct{}

	mu        sync.Mutex
	proj      *project.Project
	projErr   error
	last      Doc       // what was last published
	installed installed // cached per serial, refreshed on change and every 15 s
	running   *RunState
	runSeq    int
	ctx       context.Context // the watcher's lifetime, for runs started by requests
}

type installed struct {
	serial, pkg string
	info        targetrun.Installed
	ok          bool
	at          time.Time
}

// New builds a Watcher and reads the project once.
func New(opts Options) *Watcher {
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	if opts.Every <= 0 {
		opts.Every = time.Second
	}
	if opts.LastEdit == nil {
		opts.LastEdit = func() time.Time { return time.Time{} }
	}
	w := &Watcher{opts: opts, log: opts.Log, poke: make(chan struct{}, 1), ctx: context.Background()}
	w.reload()
	return w
}

// reload reads the project model again (a run re-reads it: the build files may
// have changed since start-up).
func (w *Watcher) reload() {
	p, err := project.Load(w.opts.ProjectDir)
	w.mu.Lock()
	w.proj, w.projErr = p, err
	if err != nil {
		w.proj = nil
	}
	w.mu.Unlock()
}

func (w *Watcher) module() (*project.Project, *project.Module, error) {
	w.mu.Lock()
	p, err := w.proj, w.projErr
	w.mu.Unlock()
	if err != nil {
		return nil, nil, errcode.Wrap(errcode.AppNotAvailable, err, "%v", err)
	}
	m, err := p.Module("")
	return p, m, err
}

// Poke asks the loop to look again now (after a device change, a launch, a run).
func (w *Watcher) Poke() {
	select {
	case w.poke <- struct{}{}:
	default:
	}
}

// Run follows the selected device until ctx ends, publishing target-app-updated whenever
// what the console shows changes.
func (w *Watcher) Run(ctx context.Context) {
	w.mu.Lock()
	w.ctx = ctx
	w.mu.Unlock()
	t := time.NewTicker(w.opts.Every)
	defer t.Stop()
	for {
		var changes <-chan struct{}
		if w.opts.Changes != nil {
			changes = w.opts.Changes()
		}
		if w.opts.Watched == nil || w.opts.Watched() || w.busy() {
			w.refresh(ctx, false)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-w.poke:
		case <-changes:
		}
	}
}

// refresh computes the doc and publishes it when it differs from the last one.
func (w *Watcher) refresh(ctx context.Context, force bool) Doc {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	d := w.Doc(ctx)
	w.mu.Lock()
	changed := force || !sameDoc(d, w.last)
	if changed {
		w.last = d
	}
	w.mu.Unlock()
	if changed {
		UpdatedEvent.Publish(w.opts.Bus, d)
	}
	return d
}

func sameDoc(a, b Doc) bool {
	t := func(p *time.Time) time.Time {
		if p == nil {
			return time.Time{}
		}
		return *p
	}
	return a.Available == b.Available && a.ApplicationID == b.ApplicationID && a.Serial == b.Serial && a.Gradlew == b.Gradlew &&
		a.Installed == b.Installed && a.VersionName == b.VersionName && a.VersionCode == b.VersionCode &&
		t(a.InstalledAt).Equal(t(b.InstalledAt)) && t(a.LastEditAt).Equal(t(b.LastEditAt)) &&
		a.Foreground == b.Foreground && a.FocusedPackage == b.FocusedPackage && (a.Running == nil) == (b.Running == nil)
}

// Last is the doc last published (no device command runs).
func (w *Watcher) Last() Doc {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.last
}

// Doc reads the app's state on the selected device now.
func (w *Watcher) Doc(ctx context.Context) Doc {
	_, m, err := w.module()
	if err != nil {
		return Doc{Problem: err.Error()}
	}
	d := Doc{Available: true, ApplicationID: m.ApplicationID, Label: m.Label, LauncherActivity: m.LauncherActivity, Module: m.Path}
	if st, err := os.Stat(filepath.Join(w.opts.ProjectDir, "gradlew")); err == nil && !st.IsDir() {
		d.Gradlew = true
	}
	if d.Label == "" {
		d.Label = m.ApplicationID
	}
	w.mu.Lock()
	d.Running = w.running
	w.mu.Unlock()
	if edit := w.opts.LastEdit(); !edit.IsZero() {
		d.LastEditAt = &edit
	}
	serial := w.opts.Selected()
	if serial == "" {
		return d
	}
	d.Serial = serial
	dev := w.opts.ADB.Device(serial)
	if in := w.installedOn(ctx, dev, serial, m); in.ok {
		d.ApplicationID, d.Installed = in.pkg, true
		d.VersionName, d.VersionCode = in.info.VersionName, in.info.VersionCode
		if !in.info.LastUpdate.IsZero() {
			at := in.info.LastUpdate
			d.InstalledAt = &at
			// dumpsys prints whole seconds: an edit within the install's second is not newer.
			d.SourcesNewerThanInstall = d.LastEditAt != nil && d.LastEditAt.After(at.Add(time.Second))
		}
	}
	if f, err := targetrun.ReadFocus(ctx, dev); err == nil {
		d.FocusedPackage = f.Package
		d.Foreground = f.Package == d.ApplicationID && !f.Keyguard
	}
	return d
}

// installedOn returns the cached install facts for serial, read again when stale.
func (w *Watcher) installedOn(ctx context.Context, dev targetrun.Device, serial string, m *project.Module) installed {
	w.mu.Lock()
	c := w.installed
	w.mu.Unlock()
	if c.serial == serial && time.Since(c.at) < 15*time.Second {
		return c
	}
	c = installed{serial: serial, at: time.Now()}
	v, _, err := m.Variant("")
	if err != nil {
		return c
	}
	if adb.CheckPackage(m.ApplicationID) != nil {
		return c
	}
	res, err := dev.Shell(ctx, adb.Command("pm", "list", "packages", m.ApplicationID))
	if err != nil {
		return c
	}
	c.pkg = project.InstalledPackage(project.ParsePackageList(string(res.Stdout)), m, v)
	if c.pkg != "" {
		c.info, c.ok, _ = targetrun.ReadInstalled(ctx, dev, c.pkg)
	}
	w.mu.Lock()
	w.installed = c
	w.mu.Unlock()
	return c
}

// busy reports whether a run is in progress.
func (w *Watcher) busy() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.running != nil
}

// forgetInstalled makes the next Doc read the device's package facts again.
func (w *Watcher) forgetInstalled() {
	w.mu.Lock()
	w.installed = installed{}
	w.mu.Unlock()
}

// ErrBusy is returned while a run is in progress.
var ErrBusy = errors.New("a run is in progress")

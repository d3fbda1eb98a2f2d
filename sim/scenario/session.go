package scenario

import (
	"fmt"
	"image"
	"maps"
	"slices"
	"strings"
	"sync"
)

// State is what dumpsys and the preview need to know about the device.
type State struct {
	ScreenOn          bool
	Locked            bool
	ForegroundPackage string // app package, or the launcher's when the app is not in front
	Activity          string // fully qualified component class, e.g. com.fixthis.demo.MainActivity
	Rotation          int
	ScreenID          string // scenario screen id; "launcher" or "keyguard" for system screens
	Dialog            string // dialog screen id shown over ScreenID, if any
	AppRunning        bool
}

// Package names of the system screens.
const (
	LauncherPackage = "com.google.android.apps.nexuslauncher"
	SystemUIPackage = "com.android.systemui"
)

// entry is one screen on the app's back stack.
type entry struct {
	screen string
	args   map[string]string
	st     *screenState
	dialog string
	dst    *screenState // dialog state
}

// Session is one device's state over a scenario. All methods are safe for
// concurrent use.
type Session struct {
	sc *Scenario

	mu         sync.Mutex
	screenOn   bool
	locked     bool
	running    bool
	foreground bool
	stack      []*entry
	rotation   int
	secure     bool // the app's activity window has FLAG_SECURE
	display    Display
	version    uint64
}

// NewSession returns a device that is awake and unlocked, with the app in
// front on its start screen, as a developer's phone usually is.
func (s *Scenario) NewSession() *Session {
	se := &Session{sc: s, screenOn: true, running: true, foreground: true, version: 1}
	se.stack = []*entry{newEntry(s.Start, nil)}
	if s.Variant != "" {
		_ = se.ApplyVariant(s.Variant) // Load only sets variants the demo has
	}
	return se
}

// Scenario returns the scenario the session runs.
func (se *Session) Scenario() *Scenario { return se.sc }

func newEntry(screen string, args map[string]string) *entry {
	return &entry{screen: screen, args: args, st: newScreenState(args)}
}

func newScreenState(args map[string]string) *screenState {
	return &screenState{args: args, fields: map[string]string{}, checks: map[string]bool{}, scrolls: map[string]int{}}
}

// Version increments on every visible change.
func (se *Session) Version() uint64 {
	se.mu.Lock()
	defer se.mu.Unlock()
	return se.version
}

// State reports power, keyguard and the foreground component.
func (se *Session) State() State {
	se.mu.Lock()
	defer se.mu.Unlock()
	st := State{ScreenOn: se.screenOn, Locked: se.locked, Rotation: se.rotation, AppRunning: se.running}
	switch {
	case se.locked:
		st.ForegroundPackage, st.Activity, st.ScreenID = SystemUIPackage, SystemUIPackage+".keyguard.KeyguardViewMediator", "keyguard"
	case !se.foreground || len(se.stack) == 0:
		st.ForegroundPackage, st.Activity, st.ScreenID = LauncherPackage, "com.google.android.apps.nexuslauncher.NexusLauncherActivity", "launcher"
	default:
		top := se.stack[len(se.stack)-1]
		sc := se.sc.Screens[top.screen]
		st.ForegroundPackage = se.sc.App.Package
		st.Activity = se.sc.qualify(sc.Activity)
		st.ScreenID, st.Dialog = top.screen, top.dialog
	}
	return st
}

// qualify expands ".MainActivity" to "com.fixthis.demo.MainActivity".
func (s *Scenario) qualify(activity string) string {
	if strings.HasPrefix(activity, ".") {
		return s.App.Package + activity
	}
	return activity
}

// Frame returns the current screen pixels. The image is shared with other
// callers and must not be modified.
func (se *Session) Frame() *image.RGBA { return se.current().frame }

// UIAutomatorXML returns the current UI tree as `uiautomator dump` writes it.
// With the screen off it still describes the window that would show (the
// keyguard when locked); callers mimicking a device may refuse instead.
func (se *Session) UIAutomatorXML() []byte { return se.current().xml }

// SidekickNodes returns the top window's semantics nodes in document order.
func (se *Session) SidekickNodes() []Node { return se.current().nodes }

// ActivityNodes returns the semantics nodes of the app's own window, the one under a
// dialog when a dialog is up.
func (se *Session) ActivityNodes() []Node { return se.current().activity }

func (se *Session) current() *rendered {
	se.mu.Lock()
	key, spec := se.snapshotLocked()
	se.mu.Unlock()
	return se.sc.cache.get(key, func() *rendered { return se.sc.under(spec.display, spec.app).renderState(spec) })
}

// frameSpec is everything a render depends on.
type frameSpec struct {
	base     page
	dialog   *page // a dialog window over base, if any
	screenOn bool
	rotation int
	secure   bool // base is the app's window and it has FLAG_SECURE
	ime      bool // the keyboard is shown
	display  Display
	app      bool // base is one of the app's screens (its locale applies)
}

// snapshotLocked returns the state key and deep copies of the pages to draw.
func (se *Session) snapshotLocked() (string, frameSpec) {
	var b strings.Builder
	spec := frameSpec{screenOn: se.screenOn, rotation: se.rotation, display: se.display}
	fmt.Fprintf(&b, "on=%t rot=%d %s ", se.screenOn, se.rotation, se.display.key(true))
	sysVars := map[string]string{
		"time": se.sc.StatusTime, "appLabel": se.sc.App.Label, "appPackage": se.sc.App.Package,
	}
	switch {
	case se.locked:
		b.WriteString("keyguard")
		spec.base = page{screen: se.sc.keyguard, st: newScreenState(nil), vars: sysVars}
		return b.String(), spec
	case !se.foreground || len(se.stack) == 0:
		b.WriteString("launcher")
		spec.base = page{screen: se.sc.launcher, st: newScreenState(nil), vars: sysVars}
		return b.String(), spec
	}
	top := se.stack[len(se.stack)-1]
	spec.app = true
	spec.base = page{screen: se.sc.Screens[top.screen], st: top.st.clone(), vars: maps.Clone(top.args)}
	// A focused field shows the keyboard, as tapping a text field does on a phone.
	spec.secure, spec.ime = se.secure, se.focusedLocked() != nil
	fmt.Fprintf(&b, "app %s %s secure=%t ime=%t", top.screen, top.st.key(), spec.secure, spec.ime)
	if top.dialog == "" {
		return b.String(), spec
	}
	fmt.Fprintf(&b, " dialog %s %s", top.dialog, top.dst.key())
	spec.dialog = &page{screen: se.sc.Screens[top.dialog], st: top.dst.clone(), vars: maps.Clone(top.dst.args)}
	return b.String(), spec
}

func (st *screenState) clone() *screenState {
	return &screenState{args: maps.Clone(st.args), fields: maps.Clone(st.fields), checks: maps.Clone(st.checks),
		scrolls: maps.Clone(st.scrolls), focus: st.focus}
}

// key is a canonical string of the state, part of the render cache key.
func (st *screenState) key() string {
	var b strings.Builder
	writeMap := func(tag string, m map[string]string) {
		b.WriteString(tag)
		for _, k := range slices.Sorted(maps.Keys(m)) {
			fmt.Fprintf(&b, "%q=%q,", k, m[k])
		}
	}
	writeMap("a:", st.args)
	writeMap(" f:", st.fields)
	b.WriteString(" c:")
	for _, k := range slices.Sorted(maps.Keys(st.checks)) {
		fmt.Fprintf(&b, "%q=%t,", k, st.checks[k])
	}
	b.WriteString(" s:")
	for _, k := range slices.Sorted(maps.Keys(st.scrolls)) {
		fmt.Fprintf(&b, "%q=%d,", k, st.scrolls[k])
	}
	fmt.Fprintf(&b, " focus=%q", st.focus)
	return b.String()
}

// mutate runs f under the lock and bumps the version when the state key
// changed; it reports whether anything visible changed.
func (se *Session) mutate(f func()) bool {
	se.mu.Lock()
	defer se.mu.Unlock()
	before, _ := se.snapshotLocked()
	f()
	after, _ := se.snapshotLocked()
	if before == after {
		return false
	}
	se.version++
	return true
}

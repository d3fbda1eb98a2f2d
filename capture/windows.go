package capture

import (
	"regexp"
	"strconv"
	"strings"
)

// Window is one window in WindowManager's list. uiautomator dumps only the active
// window, so this list is the only way to know what else covers the screen: the
// keyboard, the status and navigation bars, the activity behind a dialog.
type Window struct {
	Title   string     `json:"title"`
	Type    WindowType `json:"type"`
	Package string     `json:"package,omitempty"`
	// Bounds are where the window draws, clipped to the screen. For the input method
	// it is the keyboard itself, not the full-screen frame modern keyboards ask for.
	Bounds  Bounds `json:"bounds"`
	Visible bool   `json:"visible"`
	Focused bool   `json:"focused"`
	Secure  bool   `json:"secure,omitempty"` // FLAG_SECURE: screenshots show black
}

// WindowType is what kind of window a Window is, as the console names it.
type WindowType string

// Window types reported in Window.Type.
const (
	WindowApp               WindowType = "app"
	WindowDialog            WindowType = "dialog"
	WindowIME               WindowType = "ime"
	WindowStatusBar         WindowType = "status_bar"
	WindowNavigationBar     WindowType = "navigation_bar"
	WindowNotificationShade WindowType = "notification_shade"
	WindowWallpaper         WindowType = "wallpaper"
	WindowKeyguard          WindowType = "keyguard"
	WindowToast             WindowType = "toast"
	WindowOverlay           WindowType = "overlay"
	WindowSystem            WindowType = "system"
)

// WindowTypes lists every WindowType.
var WindowTypes = []WindowType{WindowApp, WindowDialog, WindowIME, WindowStatusBar, WindowNavigationBar,
	WindowNotificationShade, WindowWallpaper, WindowKeyguard, WindowToast, WindowOverlay, WindowSystem}

// WindowList is what the "WINDOW MANAGER WINDOWS" section of `dumpsys window` tells.
type WindowList struct {
	Windows []Window // top of the z-order first, as dumpsys lists them
	// FocusedApp is the package of the focused activity (mFocusedApp), or of the
	// focused window when the dump has no mFocusedApp line.
	FocusedApp string
	// Unread counts the lines between the section's heading and its first window
	// record that belong to no record: zero on every dump seen so far, so a
	// non-zero count says a new Android prints something this parser does not know.
	// In a text with no record at all (a grep of the focus lines) it counts the
	// lines that are not WindowManager's own fields.
	Unread int
	// Unreadable names the window records in which the parser found neither a type
	// nor a frame: such a window is still listed (as a system window with no
	// bounds), and the name says what a new Android prints differently.
	Unreadable []string
	// SidekickStatus is the FixThis sidekick's connection pill when the dump shows
	// it (see isSidekickStatus); it is left out of Windows.
	SidekickStatus *Window `json:",omitempty"`
}

var (
	// "  Window #3 Window{d01181 u0 StatusBar}:"; Android 4 has no user and appends
	// " paused=false".
	windowHeaderRE = regexp.MustCompile(`^\s*Window #\d+ Window\{([0-9a-f]+) (?:u\d+ )?(.*?)(?: paused=(?:true|false))?\}:\s*$`)
	rectRE         = regexp.MustCompile(`\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]`)
	skRegionRE     = regexp.MustCompile(`touchable region=SkRegion\(\((-?\d+),(-?\d+),(-?\d+),(-?\d+)\)`)
	// The window's frame: "mFrame=" on a line of its own (Android 4-12), "frame=" in
	// the Frames line (Android 13+).
	frameRE = regexp.MustCompile(`(?:\bmFrame|^Frames:.*\bframe)=(\[-?\d+,-?\d+\]\[-?\d+,-?\d+\])`)
	// The display a window lays out in: "mDisplayFrame=" (Android 4-9), "display="
	// in the Frames line (Android 10+).
	windowDisplayRE = regexp.MustCompile(`\b(?:mDisplayFrame|display)=(\[-?\d+,-?\d+\]\[-?\d+,-?\d+\])`)
	displaySizeRE   = regexp.MustCompile(`\bmBounds=Rect\(0, 0 - (\d+), (\d+)\)`)
)

// ParseWindowList reads the window list of `dumpsys window` (the whole dump or just
// its "windows" section) from Android 4 to 14.
func ParseWindowList(out string) WindowList {
	all := strings.ReplaceAll(out, "\r", "")
	// The focus is in the displays section on Android 10+, in the windows one before.
	var list WindowList
	fo := focusOf(all)
	focusHash := fo.hash
	list.FocusedApp = fo.app
	text := all
	if i := strings.Index(text, "WINDOW MANAGER WINDOWS"); i >= 0 {
		text = text[i:]
		if j := strings.Index(text[1:], "\nWINDOW MANAGER "); j >= 0 {
			text = text[:j+1]
		}
	}
	blocks, unread := windowRecords(text)
	list.Unread = unread
	screen := displayBounds(text)
	if screen.Empty() {
		screen = commonDisplay(blocks)
	}
	for _, b := range blocks {
		w, read, pill := b.window(screen)
		if !read {
			list.Unreadable = append(list.Unreadable, b.title)
		}
		w.Focused = focusHash != "" && b.hash == focusHash
		if pill {
			list.SidekickStatus = &w
			continue
		}
		list.Windows = append(list.Windows, w)
	}
	if list.FocusedApp == "" {
		for _, w := range list.Windows {
			if w.Focused {
				list.FocusedApp = w.Package
			}
		}
	}
	return list
}

// displayBounds is the screen in the current rotation, from the global
// configuration; zero when the dump does not say.
func displayBounds(text string) Bounds {
	i := strings.Index(text, "mGlobalConfiguration=")
	if i < 0 {
		return Bounds{}
	}
	if m := displaySizeRE.FindStringSubmatch(text[i:]); m != nil {
		w, _ := strconv.Atoi(m[1])
		h, _ := strconv.Atoi(m[2])
		return Bounds{Right: w, Bottom: h}
	}
	return Bounds{}
}

func headerOf(l string) []string {
	if !strings.Contains(l, "Window #") {
		return nil
	}
	return windowHeaderRE.FindStringSubmatch(l)
}

// commonDisplay is the display frame most windows lay out in, for dumps without a
// global configuration (Android 4-9). Frames not at the origin are not the screen.
func commonDisplay(blocks []*windowBlock) Bounds {
	count := map[Bounds]int{}
	var best Bounds
	for _, b := range blocks {
		for _, l := range b.lines {
			if m := windowDisplayRE.FindStringSubmatch(l); m != nil {
				if r := parseRect(m[1]); r.Left == 0 && r.Top == 0 && !r.Empty() {
					count[r]++
					if count[r] > count[best] {
						best = r
					}
				}
			}
		}
	}
	return best
}

// windowBlock is the text of one "Window #N" entry.
type windowBlock struct {
	hash, title string
	lines       []string
}

// window reads the record; read is false when it held neither a type nor a frame,
// pill true when the record is the sidekick's status window.
func (b *windowBlock) window(screen Bounds) (w Window, read, pill bool) {
	w = Window{Title: b.title}
	var typ string
	var flags []string
	viewVisibility, isVisible, lastHidden := "", "", false
	var frame, region Bounds
	insetTop := 0
	for _, l := range b.lines {
		if !strings.Contains(l, "=") {
			continue
		}
		for _, f := range strings.Fields(l) {
			k, v, ok := strings.Cut(f, "=")
			if !ok {
				continue
			}
			switch k {
			case "package":
				w.Package = v
			case "ty":
				typ = v
			case "fl":
				flags = append(flags, v)
			case "mViewVisibility":
				viewVisibility = v
			case "isVisible":
				isVisible = v
			case "mLastHidden":
				lastHidden = v == "true"
			}
		}
		if rest, ok := strings.CutPrefix(l, "fl="); ok { // Android 10+: one flag name per word
			flags = append(flags, strings.Fields(rest)...)
		}
		if rest, ok := strings.CutPrefix(l, "mGivenContentInsets="); ok {
			insetTop = parseRect(rest).Top
		}
		if strings.Contains(l, "rame=") {
			if m := frameRE.FindStringSubmatch(l); m != nil {
				frame = parseRect(m[1])
			}
		}
		if strings.Contains(l, "touchable region=") {
			if m := skRegionRE.FindStringSubmatch(l); m != nil {
				region = parseRect("[" + m[1] + "," + m[2] + "][" + m[3] + "," + m[4] + "]")
			}
		}
	}
	read = typ != "" || !frame.Empty()
	w.Type = windowType(typ, w.Title)
	if w.Package == "" {
		if pkg, _, ok := strings.Cut(w.Title, "/"); ok && !strings.Contains(pkg, " ") {
			w.Package = pkg // Android 4 dumps have no package= line
		}
	}
	w.Secure = hasSecureFlag(flags)
	w.Bounds = frame
	if w.Type == WindowIME {
		// Keyboards ask for a full-screen window and draw only at the bottom: the
		// touchable region, else the content inset, says where the keys are.
		switch {
		case !region.Empty():
			w.Bounds = region
		case insetTop > 0 && insetTop < frame.Height():
			w.Bounds.Top = frame.Top + insetTop
		}
	}
	if !screen.Empty() {
		w.Bounds = w.Bounds.Intersect(screen)
	}
	switch {
	case isVisible != "":
		w.Visible = isVisible == "true"
	default: // Android 4-9: shown when its view is VISIBLE and its surface not hidden
		w.Visible = viewVisibility == "0x0" && !lastHidden
	}
	if w.Bounds.Empty() {
		w.Visible = false
	}
	return w, read, isSidekickStatus(typ, w.Title, flags)
}

func parseRect(s string) Bounds {
	m := rectRE.FindStringSubmatch(s)
	if m == nil {
		return Bounds{}
	}
	v := [4]int{}
	for i := range v {
		v[i], _ = strconv.Atoi(m[i+1])
	}
	return Bounds{Left: v[0], Top: v[1], Right: v[2], Bottom: v[3]}
}

// flagSecure is WindowManager.LayoutParams.FLAG_SECURE, for dumps that print the
// flags as hex (Android 4-9: "fl=#1812100").
const flagSecure = 0x2000

func hasSecureFlag(flags []string) bool {
	for _, f := range flags {
		if hex, ok := strings.CutPrefix(f, "#"); ok {
			if v, err := strconv.ParseUint(hex, 16, 64); err == nil && v&flagSecure != 0 {
				return true
			}
			continue
		}
		if f == "SECURE" {
			return true
		}
	}
	return false
}

// windowType maps WindowManager's type (a name on Android 10+, a number before; a
// few types print as numbers even now) to the kinds FixThis tells apart.
func windowType(ty, title string) WindowType {
	switch ty {
	case "BASE_APPLICATION", "1", "DRAWN_APPLICATION", "4", "APPLICATION_STARTING", "3":
		return WindowApp
	case "APPLICATION", "2", "APPLICATION_ATTACHED_DIALOG", "1003", "APPLICATION_PANEL", "1000",
		"APPLICATION_SUB_PANEL", "1002":
		return WindowDialog
	case "INPUT_METHOD", "2011", "INPUT_METHOD_DIALOG", "2012":
		return WindowIME
	case "STATUS_BAR", "2000":
		return WindowStatusBar
	case "NAVIGATION_BAR", "2019":
		return WindowNavigationBar
	case "NOTIFICATION_SHADE", "2040", "STATUS_BAR_PANEL", "2014", "STATUS_BAR_SUB_PANEL", "2017":
		if strings.HasPrefix(title, "Recents") {
			return WindowSystem
		}
		return WindowNotificationShade
	case "WALLPAPER", "2013":
		return WindowWallpaper
	case "KEYGUARD", "2004", "KEYGUARD_DIALOG", "2009":
		return WindowKeyguard
	case "TOAST", "2005":
		return WindowToast
	case "APPLICATION_OVERLAY", "2038", "SYSTEM_ALERT", "2003", "PHONE", "2002", "SYSTEM_OVERLAY", "2006":
		return WindowOverlay
	}
	return WindowSystem
}

// applyWindows fills the window fields of a screen state. The keyboard counts as
// shown when the input method service says so or its window is visible.
func applyWindows(s *ScreenState, list WindowList, imeShown bool) {
	s.Windows = list.Windows
	s.IMEVisible = imeShown
	app := list.FocusedApp
	if app == "" {
		app = s.Package
	}
	for _, w := range list.Windows {
		if !w.Visible {
			continue
		}
		if w.Type == WindowIME {
			s.IMEVisible = true
		}
		if w.Secure && app != "" && w.Package == app {
			s.Secure = true
		}
	}
}

// WindowAt returns the topmost visible window that covers the point (x, y), or
// nil when the list says nothing about it.
func (s ScreenState) WindowAt(x, y int) *Window {
	for i := range s.Windows {
		w := &s.Windows[i]
		if w.Visible && w.Type != WindowWallpaper && w.Bounds.Contains(x, y) {
			return w
		}
	}
	return nil
}

// Dialog returns the dialog window the UI tree came from: the focused dialog, else
// the topmost visible one (some dumps name no focus). Nil when no dialog is up.
func (s ScreenState) Dialog() *Window {
	var top *Window
	for i := range s.Windows {
		w := &s.Windows[i]
		if w.Type != WindowDialog || !w.Visible {
			continue
		}
		if w.Focused {
			return w
		}
		if top == nil {
			top = w
		}
	}
	return top
}

// Keyboard returns where the on-screen keyboard's keys are, or nil when it is hidden.
func (s ScreenState) Keyboard() *Bounds {
	for _, w := range s.Windows {
		if w.Type == WindowIME && w.Visible && !w.Bounds.Empty() {
			b := w.Bounds
			return &b
		}
	}
	return nil
}

// Display is what a capture says about the screen beyond its pixels and tree. The
// freeze response, `fixthis capture --json` and the MCP capture tool all report it.
type Display struct {
	Orientation string   `json:"orientation"` // PORTRAIT | LANDSCAPE
	Rotation    int      `json:"rotation"`    // 0-3 quarter turns
	Windows     []Window `json:"windows"`     // top first
	IMEVisible  bool     `json:"imeVisible"`
	Secure      bool     `json:"secure"`
}

// Display of the snapshot; Windows is never nil, so it encodes as a list.
func (s *Snapshot) Display() Display {
	w := s.State.Windows
	if w == nil {
		w = []Window{}
	}
	return Display{Orientation: s.State.Orientation, Rotation: s.State.Rotation, Windows: w,
		IMEVisible: s.State.IMEVisible, Secure: s.State.Secure}
}

// windowRecords splits the windows section into one record per "Window #N" header.
// A record runs to the next header, or to the first line of the section's trailer.
// Indentation alone cannot tell the trailer: a window's attributes are printed by
// LayoutParams.toString, whose continuation lines start at two spaces, or one, when
// it prints paramsForRotation (Android 13+). So a line indented less than a record's
// four spaces still belongs to the record while one of its braces is open, unless it
// is shaped like a WindowManager field ("  mGlobalConfiguration=…"): some records
// end with a brace left open ("mSources= {  }" on Android 11).
func windowRecords(text string) (blocks []*windowBlock, unread int) {
	depth, before, unknown := 0, 0, 0
	defer func() {
		if len(blocks) > 0 {
			unread = before
		} else {
			unread = unknown
		}
	}()
	for _, l := range strings.Split(text, "\n") {
		// The regexps run only on lines that can match: the parse runs with every
		// screen-state check.
		if m := headerOf(l); m != nil {
			blocks = append(blocks, &windowBlock{hash: m[1], title: strings.TrimSpace(m[2])})
			depth = 0
			continue
		}
		trimmed := strings.TrimSpace(l)
		if len(blocks) == 0 {
			// Nothing comes between the section's heading and its first record. A
			// text with no record at all (a grep, a trimmed dump) holds WindowManager's
			// own fields; anything else there is a line this parser does not know.
			if trimmed != "" && !strings.HasPrefix(trimmed, "WINDOW MANAGER WINDOWS") {
				before++
				if !trailerField(trimmed) {
					unknown++
				}
			}
			continue
		}
		inRecord := strings.HasPrefix(l, "    ") || trimmed == "" ||
			(depth > 0 && !trailerField(trimmed))
		if !inRecord {
			break
		}
		b := blocks[len(blocks)-1]
		b.lines = append(b.lines, trimmed)
		depth += strings.Count(l, "{") - strings.Count(l, "}")
		if depth < 0 {
			depth = 0
		}
	}
	return blocks, unread
}

// trailerField tells the section's own fields ("mGlobalConfiguration=",
// "imeLayeringTarget in display# 0 …", "Animation settings: …") from a window's
// attribute continuation lines ("fl=…", "bhv=DEFAULT}", "providedInternalInsets=…").
func trailerField(trimmed string) bool {
	if len(trimmed) > 1 && trimmed[0] == 'm' && trimmed[1] >= 'A' && trimmed[1] <= 'Z' {
		return true
	}
	for _, p := range []string{"ime", "inputMethod", "SnapshotCache", "Animation settings", "PolicyControl.", "Minimum task size", "WINDOW MANAGER"} {
		if strings.HasPrefix(trimmed, p) {
			return true
		}
	}
	return false
}

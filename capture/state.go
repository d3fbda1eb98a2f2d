package capture

import (
	"fixthis/adb"
	"regexp"
	"strconv"
	"strings"
)

// ScreenState is what dumpsys says about the screen, for fingerprints and for the
// preview's blocked states. Unknown values stay zero.
type ScreenState struct {
	Package      string `json:"package"`
	Activity     string `json:"activity"`    // fully qualified class name
	Rotation     int    `json:"rotation"`    // 0-3 quarter turns (Surface.ROTATION_*)
	Orientation  string `json:"orientation"` // PORTRAIT | LANDSCAPE (from the frame when known)
	Density      int    `json:"density"`
	ScreenOn     bool   `json:"screenOn"`
	Wakefulness  string `json:"wakefulness,omitempty"` // Awake | Asleep | Dozing | Dreaming
	Keyguard     bool   `json:"keyguard"`              // the lock screen covers the app
	WindowMode   string `json:"windowMode"`            // FULLSCREEN | MULTI_WINDOW | PINNED | FREEFORM
	SystemUIKind string `json:"systemUiKind"`          // "" | ime | permission_dialog | notification_shade
	FocusWindow  string `json:"focusWindow,omitempty"` // raw mCurrentFocus window name
	// Windows on screen (top first), from the window list of `dumpsys window`.
	Windows    []Window `json:"windows"`
	IMEVisible bool     `json:"imeVisible"` // the keyboard is shown
	Secure     bool     `json:"secure"`     // a visible window of the focused app has FLAG_SECURE
}

// lines splits dumpsys output, whatever the line endings (adb shell v1 turns \n into
// \r\n on older devices).
func lines(out string) []string {
	out = strings.ReplaceAll(out, "\r", "")
	return strings.Split(out, "\n")
}

// ActivitiesInfo is what `dumpsys activity activities` tells.
type ActivitiesInfo struct {
	Package, Activity string
	WindowMode        string
	KeyguardShowing   bool
	KeyguardOccluded  bool
}

var (
	// ActivityRecord{hash u0 pkg/.Activity t12} after the resumed-activity key of
	// each Android version, strongest first: topResumedActivity= (10+: the one
	// activity on top of every display), mResumedActivity: and ResumedActivity:
	// (one per display and task, 9-11), mFocusedActivity: (≤8), mFocusedApp.
	resumedREs = func() []*regexp.Regexp {
		var res []*regexp.Regexp
		for _, key := range []string{`topResumedActivity=`, `mResumedActivity:`, `\bResumedActivity:`, `mFocusedActivity:`, `mFocusedApp=`} {
			res = append(res, regexp.MustCompile(key+`\s*(?:Token\{[^ ]+ )?ActivityRecord\{[^ ]+ u\d+ ([^ /}]+)/([^ }]+)`))
		}
		return res
	}()
	// "mode=fullscreen" in Task/Stack headers, "mWindowingMode=fullscreen" in configs.
	modeRE = regexp.MustCompile(`(?:\bmode|mWindowingMode)=([a-z][a-z-]*)`)
)

// ParseActivities reads `dumpsys activity activities`.
func ParseActivities(out string) ActivitiesInfo {
	var info ActivitiesInfo
	text := strings.ReplaceAll(out, "\r", "")
	// A phone with a second display (a foldable's cover screen) lists a resumed
	// activity per display; the top one is named once, and wins over them.
	var m []int
	for _, re := range resumedREs {
		if m = re.FindStringSubmatchIndex(text); m != nil {
			break
		}
	}
	if m != nil {
		info.Package = text[m[2]:m[3]]
		info.Activity = qualifyActivity(info.Package, text[m[4]:m[5]])
		// The window mode is in the header of the task holding that activity: the
		// last "mode=" before the activity's first record in the dump.
		component := text[m[2]:m[5]]
		at := strings.Index(text, component)
		if at >= 0 {
			if ms := modeRE.FindAllStringSubmatch(text[:at], -1); len(ms) > 0 {
				info.WindowMode = windowMode(ms[len(ms)-1][1])
			}
		}
	}
	for _, l := range lines(out) {
		l = strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "mKeyguardShowing=true"), strings.HasPrefix(l, "KeyguardShowing=true"):
			info.KeyguardShowing = true
		case strings.Contains(l, "Occluded=true"):
			info.KeyguardOccluded = true
		}
	}
	return info
}

// windowMode maps WindowConfiguration.windowingModeToString to the upstream enum.
func windowMode(s string) string {
	switch s {
	case "fullscreen":
		return "FULLSCREEN"
	case "multi-window", "split-screen-primary", "split-screen-secondary":
		return "MULTI_WINDOW"
	case "pinned":
		return "PINNED"
	case "freeform":
		return "FREEFORM"
	}
	return ""
}

// qualifyActivity expands "pkg/.Main" to "pkg.Main"; full names stay.
func qualifyActivity(pkg, act string) string {
	if strings.HasPrefix(act, ".") {
		return pkg + act
	}
	return act
}

// WindowInfo is what `dumpsys window` tells.
type WindowInfo struct {
	FocusPackage, FocusActivity string
	FocusWindow                 string
	Rotation                    int
	RotationKnown               bool
	Keyguard                    bool
}

var (
	rotationRE = regexp.MustCompile(`\b(?:mRotation|mCurrentRotation|curRotation)=(?:ROTATION_)?(\d+)`)
)

// ParseWindow reads `dumpsys window` (all sections, any Android version).
func ParseWindow(out string) WindowInfo {
	var info WindowInfo
	text := strings.ReplaceAll(out, "\r", "")
	if fo := focusOf(text); fo.window != "" {
		info.FocusWindow = fo.window
		if pkg, act, ok := strings.Cut(info.FocusWindow, "/"); ok && !strings.Contains(pkg, " ") {
			info.FocusPackage, info.FocusActivity = pkg, qualifyActivity(pkg, act)
		}
	}
	if m := rotationRE.FindStringSubmatch(text); m != nil {
		if v, err := strconv.Atoi(m[1]); err == nil {
			switch v {
			case 0, 1, 2, 3:
				info.Rotation, info.RotationKnown = v, true
			case 90, 180, 270:
				info.Rotation, info.RotationKnown = v/90, true
			}
		}
	}
	for _, key := range []string{"mShowingLockscreen=true", "mDreamingLockscreen=true", "isKeyguardShowing=true", "isStatusBarKeyguard=true", "mKeyguardShowing=true"} {
		if strings.Contains(text, key) {
			info.Keyguard = true
		}
	}
	return info
}

// PowerInfo is what `dumpsys power` tells.
type PowerInfo struct {
	Wakefulness string
	ScreenOn    bool
	Known       bool
}

// ParsePower reads `dumpsys power`: mWakefulness (Android 5+), else the
// "Display Power: state=" line, else mScreenOn (Android 4).
func ParsePower(out string) PowerInfo {
	var info PowerInfo
	var display, legacy string
	for _, l := range lines(out) {
		l = strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "mWakefulness=") && info.Wakefulness == "":
			info.Wakefulness = strings.TrimPrefix(l, "mWakefulness=")
		case strings.HasPrefix(l, "Display Power: state="):
			display = strings.TrimPrefix(l, "Display Power: state=")
		case strings.HasPrefix(l, "mScreenOn="):
			legacy = strings.TrimPrefix(l, "mScreenOn=")
		}
	}
	switch {
	case info.Wakefulness != "":
		info.ScreenOn, info.Known = info.Wakefulness == "Awake", true
	case display != "":
		info.ScreenOn, info.Known = display == "ON", true
	case legacy != "":
		info.ScreenOn, info.Known = legacy == "true", true
	}
	return info
}

// ParseDensity reads `wm density`: the override when set, else the physical one; 0
// when the output has neither. The adb package owns the parser; the device list uses
// it too.
func ParseDensity(out string) int {
	d, _ := adb.ParseWMDensity(out)
	return d
}

// ParseIMEShown reads `dumpsys input_method`: whether the keyboard is on screen.
func ParseIMEShown(out string) bool {
	for _, l := range lines(out) {
		for _, f := range strings.Fields(l) {
			if f == "mInputShown=true" || f == "mIsInputViewShown=true" {
				return true
			}
		}
	}
	return false
}

// systemUIKind classifies what system UI covers the app, as upstream does: the
// keyboard first, then the focused window (a permission dialog, the shade).
func systemUIKind(imeShown bool, focus string, keyguard bool) string {
	switch {
	case imeShown:
		return "ime"
	case strings.Contains(focus, "permissioncontroller"):
		return "permission_dialog"
	case keyguard:
		// On the lock screen the shade window holds focus; that is the keyguard,
		// reported on its own, not a pulled-down shade.
		return ""
	case strings.Contains(focus, "StatusBar"), strings.Contains(focus, "NotificationShade"):
		return "notification_shade"
	}
	return ""
}

// mergeState combines the parsed outputs into one ScreenState.
func mergeState(act ActivitiesInfo, win WindowInfo, pow PowerInfo, density int, imeShown bool) ScreenState {
	s := ScreenState{
		Package:     act.Package,
		Activity:    act.Activity,
		Rotation:    win.Rotation,
		Density:     density,
		ScreenOn:    pow.ScreenOn || !pow.Known,
		Wakefulness: pow.Wakefulness,
		WindowMode:  act.WindowMode,
		FocusWindow: win.FocusWindow,
	}
	if s.Package == "" {
		s.Package, s.Activity = win.FocusPackage, win.FocusActivity
	}
	s.Keyguard = (act.KeyguardShowing || win.Keyguard) && !act.KeyguardOccluded
	s.SystemUIKind = systemUIKind(imeShown, win.FocusWindow, s.Keyguard)
	if s.Rotation%2 == 1 {
		s.Orientation = "LANDSCAPE"
	} else {
		s.Orientation = "PORTRAIT"
	}
	return s
}

// The display settings: uimode, locale, settings, wm density, and the
// configuration they put into dumpsys.
package android

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"fixthis/sim/scenario"
)

// The display settings of the simulated phone, answered as Android 14 answers them:
// `cmd uimode night [yes|no|auto|custom]` (UiModeManagerService's shell command,
// which prints "Night mode: yes" after setting too), `settings get|put|delete|list`
// (SettingsService), `wm density [N|reset]` (WindowManagerShellCommand), and
// `cmd locale set-app-locales|get-app-locales` (LocaleManagerShellCommand, Android 13
// and later only). Every change is drawn: see scenario.Display.

// displayState is what those commands set.
type displayState struct {
	mu         sync.Mutex
	night      string                       // yes, no, auto, custom
	settings   map[string]map[string]string // namespace → key → value
	density    int                          // the `wm density` override, 0 without one
	width      int                          // the `wm size` override (display_size.go), 0 without one
	height     int
	appLocales map[string]string // package → language tags
}

func (d *Device) displayLocked() *displayState {
	d.disp.mu.Lock()
	if d.disp.settings == nil {
		d.disp.night = "no"
		// A phone whose Display settings were opened once has font_scale written;
		// the animation scales stay unset ("null") until Developer options sets them.
		d.disp.settings = map[string]map[string]string{"system": {"font_scale": "1.0"}, "global": {}, "secure": {}}
		d.disp.appLocales = map[string]string{}
	}
	return &d.disp
}

// redraw hands the display settings, the size override among them, to the
// scenario session.
func (d *Device) redraw() {
	ds := d.displayLocked()
	scale, _ := strconv.ParseFloat(ds.settings["system"]["font_scale"], 64)
	tags := ds.appLocales[d.profile.App.Package]
	disp := scenario.Display{Night: ds.night == "yes", FontScale: scale, Density: ds.density, Width: ds.width, Height: ds.height, RTL: rtlTag(tags)}
	ds.mu.Unlock()
	if se := d.Session(); se != nil {
		se.SetDisplay(disp)
	}
}

// rtlTag reports whether the first of tags is written right to left.
func rtlTag(tags string) bool {
	first, _, _ := strings.Cut(strings.ToLower(tags), ",")
	parts := strings.Split(first, "-")
	if len(parts) > 1 && len(parts[1]) == 4 {
		return parts[1] == "arab" || parts[1] == "hebr" || parts[1] == "thaa" || parts[1] == "syrc"
	}
	switch parts[0] {
	case "ar", "fa", "he", "iw", "ur", "ps", "sd", "ug", "yi", "dv", "ckb":
		return true
	}
	return false
}

// density is the density apps render at.
func (d *Device) density() int {
	ds := d.displayLocked()
	defer ds.mu.Unlock()
	if ds.density > 0 {
		return ds.density
	}
	return d.profile.Density
}

// cmdUimode is `cmd uimode ...`.
func cmdUimode(e *cmdEnv) int {
	args := e.Args[2:]
	if len(args) == 0 || args[0] != "night" {
		return e.Errorf(255, "UiModeManager service (uimode) commands:\n  help\n    Print this help text.\n  night [yes|no|auto|custom|custom_schedule|custom_bedtime]\n    Set or read night mode.\n")
	}
	ds := e.dev.displayLocked()
	if len(args) > 1 {
		switch args[1] {
		case "yes", "no", "auto", "custom":
			ds.night = args[1]
		default:
			ds.mu.Unlock()
			return e.Errorf(255, "Error: mode must be 'yes', 'no', 'auto', or 'custom'\n")
		}
	}
	mode := ds.night
	if mode == "custom" {
		mode = "custom_schedule"
	}
	ds.mu.Unlock()
	e.dev.redraw()
	e.Printf("Night mode: %s\n", mode)
	return 0
}

// cmdLocale is `cmd locale ...`; the service exists from Android 13.
func cmdLocale(e *cmdEnv) int {
	if e.dev.profile.SDK < 33 {
		return e.Errorf(20, "cmd: Can't find service: locale\n")
	}
	args := e.Args[2:]
	if len(args) == 0 || (args[0] != "set-app-locales" && args[0] != "get-app-locales") {
		return e.Errorf(255, "Locale manager (locale) shell commands:\n  help\n      Print this help text.\n  set-app-locales <PACKAGE_NAME> [--user <USER_ID>] [--locales <LOCALE_INFO>]\n  get-app-locales <PACKAGE_NAME> [--user <USER_ID>]\n")
	}
	if len(args) < 2 || strings.HasPrefix(args[1], "-") {
		return e.Errorf(255, "Error: no package specified\n")
	}
	pkg, tags := args[1], ""
	for i := 2; i < len(args); i++ {
		switch args[i] {
		case "--user":
			i++
		case "--locales":
			if i+1 < len(args) {
				tags = normalizeTags(args[i+1])
				i++
			}
		default:
			return e.Errorf(255, "Exception occurred while executing '%s':\njava.lang.IllegalArgumentException: Unknown option: %s\n", args[0], args[i])
		}
	}
	if _, ok := e.dev.pkgs.get(pkg); !ok {
		e.Printf("Unknown package %s for userId 0\n", pkg)
		return 0
	}
	ds := e.dev.displayLocked()
	if args[0] == "get-app-locales" {
		t := ds.appLocales[pkg]
		ds.mu.Unlock()
		e.Printf("Locales for %s for user 0 are [%s]\n", pkg, t)
		return 0
	}
	if tags == "" {
		delete(ds.appLocales, pkg)
	} else {
		ds.appLocales[pkg] = tags
	}
	ds.mu.Unlock()
	e.dev.redraw()
	return 0
}

// normalizeTags is LocaleList.forLanguageTags(s).toLanguageTags() for well-formed
// tags: the language lower case, a script title case, a region upper case.
func normalizeTags(s string) string {
	var out []string
	for _, t := range strings.Split(s, ",") {
		if t = strings.TrimSpace(t); t == "" {
			continue
		}
		parts := strings.Split(strings.ReplaceAll(t, "_", "-"), "-")
		for i, p := range parts {
			switch {
			case i == 0:
				parts[i] = strings.ToLower(p)
			case len(p) == 4:
				parts[i] = strings.ToUpper(p[:1]) + strings.ToLower(p[1:])
			case len(p) == 2:
				parts[i] = strings.ToUpper(p)
			}
		}
		out = append(out, strings.Join(parts, "-"))
	}
	return strings.Join(out, ",")
}

// cmdSettings is `settings [--user N|current] get|put|delete|list NAMESPACE ...`.
func cmdSettings(e *cmdEnv) int {
	args := e.Args[1:]
	if len(args) >= 2 && args[0] == "--user" {
		args = args[2:]
	}
	usage := "usage:  settings [--user <USER_ID> | current] get namespace key\n        settings [--user <USER_ID> | current] put namespace key value\n        settings [--user <USER_ID> | current] delete namespace key\n        settings [--user <USER_ID> | current] list namespace\n"
	if len(args) < 2 {
		return e.Errorf(255, "%s", usage)
	}
	verb, ns := args[0], args[1]
	if ns != "system" && ns != "secure" && ns != "global" {
		return e.Errorf(255, "Invalid namespace '%s'\n%s", ns, usage)
	}
	if len(args) >= 3 && ns == "system" && (args[2] == "user_rotation" || args[2] == "accelerometer_rotation") {
		switch {
		case verb == "get":
			e.Printf("%s\n", rotationSetting(e, ns, args[2], ""))
			return 0
		case verb == "put" && len(args) >= 4:
			rotationSetting(e, ns, args[2], args[3])
			return 0
		}
	}
	ds := e.dev.displayLocked()
	vals := ds.settings[ns]
	switch {
	case verb == "get" && len(args) == 3:
		v, ok := vals[args[2]]
		ds.mu.Unlock()
		if !ok {
			v = "null"
		}
		e.Printf("%s\n", v)
		return 0
	case verb == "put" && len(args) >= 4:
		if args[2] == "font_scale" && ns == "system" {
			if f, err := strconv.ParseFloat(args[3], 64); err != nil || f <= 0 {
				ds.mu.Unlock()
				return e.Errorf(255, "Exception occurred while executing 'put':\njava.lang.IllegalArgumentException: Invalid value: %s for setting: font_scale\n", args[3])
			}
		}
		vals[args[2]] = args[3]
		ds.mu.Unlock()
		e.dev.redraw()
		return 0
	case verb == "delete" && len(args) == 3:
		n := 0
		if _, ok := vals[args[2]]; ok {
			delete(vals, args[2])
			n = 1
		}
		ds.mu.Unlock()
		e.dev.redraw()
		e.Printf("Deleted %d rows\n", n)
		return 0
	case verb == "list" && len(args) == 2:
		keys := make([]string, 0, len(vals))
		for k := range vals {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var b strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&b, "%s=%s\n", k, vals[k])
		}
		ds.mu.Unlock()
		e.Printf("%s", b.String())
		return 0
	}
	ds.mu.Unlock()
	return e.Errorf(255, "%s", usage)
}

// wmDensity is `wm density [N|reset] [-d 0]`.
func wmDensity(e *cmdEnv) int {
	args := e.Args[2:]
	if len(args) >= 2 && args[len(args)-2] == "-d" {
		if args[len(args)-1] != "0" {
			return e.Errorf(255, "Error: invalid display id\n")
		}
		args = args[:len(args)-2]
	}
	ds := e.dev.displayLocked()
	if len(args) == 0 {
		o := ds.density
		ds.mu.Unlock()
		e.Printf("Physical density: %d\n", e.dev.profile.Density)
		if o > 0 && o != e.dev.profile.Density {
			e.Printf("Override density: %d\n", o)
		}
		return 0
	}
	if args[0] == "reset" {
		ds.density = 0
	} else {
		n, err := strconv.Atoi(args[0])
		if err != nil {
			ds.mu.Unlock()
			return e.Errorf(255, "Error: bad number java.lang.NumberFormatException: For input string: \"%s\"\n", args[0])
		}
		if n < 72 {
			ds.mu.Unlock()
			return e.Errorf(255, "Error: density must be >= 72\n")
		}
		ds.density = n
	}
	ds.mu.Unlock()
	e.dev.redraw()
	return 0
}

// dumpUimode is `dumpsys uimode`, the lines of UiModeManagerService's dump that
// describe night mode.
func dumpUimode(e *cmdEnv, d *Device) int {
	ds := d.displayLocked()
	mode := ds.night
	ds.mu.Unlock()
	n := map[string]int{"auto": 0, "no": 1, "yes": 2, "custom": 3}[mode]
	e.Printf("Current UI Mode Service state:\n  mDockState=0 mLastBroadcastState=0\n\n  mNightMode=%d (%s) locked=false mCarModeEnabled=false mComputedNightMode=%t\n  mCurUiMode=0x%x mSetUiMode=0x%x\n",
		n, mode, mode == "yes", 0x11+0x10*boolInt(mode == "yes"), 0x11+0x10*boolInt(mode == "yes"))
	return 0
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// configPart is the part of a Configuration's string the display settings write:
// the font scale, the locales and layout direction, and whether it is night.
func (d *Device) configPart(app bool) (scale, locales, dir, night string) {
	ds := d.displayLocked()
	defer ds.mu.Unlock()
	scale, locales, dir = "1.0", "en_US", "ldltr"
	if v := ds.settings["system"]["font_scale"]; v != "" {
		scale = v
	}
	if t := ds.appLocales[d.profile.App.Package]; app && t != "" {
		locales = strings.ReplaceAll(t, "-", "_")
		if rtlTag(t) {
			dir = "ldrtl"
		}
	}
	if ds.night == "yes" {
		night = " night"
	}
	return scale, locales, dir, night
}

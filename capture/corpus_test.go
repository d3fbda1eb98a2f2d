package capture

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixthis/internal/devicetest"
	"fixthis/internal/golden"
	"fixthis/internal/sidekick/sidekicktest"
)

// screenReading is everything the screen-state parsers read from one output; the
// golden file of each corpus file holds it.
type screenReading struct {
	Window     *WindowInfo     `json:"window,omitempty"`
	Windows    *WindowList     `json:"windows,omitempty"`
	Activities *ActivitiesInfo `json:"activities,omitempty"`
	Power      *PowerInfo      `json:"power,omitempty"`
	IMEShown   *bool           `json:"imeShown,omitempty"`
	Density    *int            `json:"density,omitempty"`
}

// readScreen runs the parsers of the command that printed file (by its name).
func readScreen(file, text string) screenReading {
	var r screenReading
	switch {
	case strings.HasPrefix(file, "dumpsys_window"):
		w, l := ParseWindow(text), ParseWindowList(text)
		r.Window, r.Windows = &w, &l
	case strings.HasPrefix(file, "dumpsys_activity"):
		a := ParseActivities(text)
		r.Activities = &a
	case strings.HasPrefix(file, "dumpsys_power"):
		p := ParsePower(text)
		r.Power = &p
	case strings.HasPrefix(file, "dumpsys_input_method"):
		s := ParseIMEShown(text)
		r.IMEShown = &s
	case strings.HasPrefix(file, "wm_density"):
		d := ParseDensity(text)
		r.Density = &d
	}
	return r
}

func screenCorpus(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, pat := range []string{"dumpsys_*.txt", "wm_*.txt"} {
		m, err := filepath.Glob(filepath.Join("testdata", pat))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range m {
			files = append(files, filepath.Base(p))
		}
	}
	if len(files) < 20 {
		t.Fatalf("only %d corpus files", len(files))
	}
	return files
}

// trimmedRecords are the window records that a sample written for the tests cut
// down to its header: the parser names them instead of dropping them.
var trimmedRecords = map[string]string{
	"dumpsys_window_api34.txt": "com.example.notes/com.example.notes.ui.EditorActivity",
}

// Every corpus file parses to its golden reading, whatever its line endings.
func TestScreenStateCorpusGolden(t *testing.T) {
	for _, file := range screenCorpus(t) {
		text := readTestdata(t, file)
		want := readScreen(file, text)
		golden.JSON(t, file, want, *update)
		for ending, variant := range lineEndings(text) {
			got := readScreen(file, variant)
			if got.Windows != nil && want.Windows != nil && len(got.Windows.Windows) != len(want.Windows.Windows) {
				t.Errorf("%s (%s): %d windows, %d with LF", file, ending, len(got.Windows.Windows), len(want.Windows.Windows))
			}
		}
		if r := want.Windows; r != nil && (r.Unread != 0 || strings.Join(r.Unreadable, ",") != trimmedRecords[file]) {
			t.Errorf("%s: %d unread lines, unreadable records %q", file, r.Unread, r.Unreadable)
		}
	}
}

// What a person reads in the real focus snippets: the focused app on a phone with a
// second (cover) display, and on TVs.
func TestFocusRealSnippets(t *testing.T) {
	tests := []struct {
		file, window, app string
	}{
		// Samsung Flip: the cover screen's launcher is named first; the phone's app has the focus.
		{"dumpsys_window_focus_samsung_flip.txt", "eu.niko.smart.universal/crc648a3abc16689e594e.MainActivity", "eu.niko.smart.universal"},
		{"dumpsys_window_focus_samsung_flip_null_first.txt", "com.example.android/com.example.android.activity.main.MainActivity", "com.example.android"},
		{"dumpsys_window_focus_android_tv_launcher.txt", "com.google.android.tvlauncher/com.google.android.tvlauncher.MainActivity", "com.google.android.tvlauncher"},
		// Sony Bravia with the picture off: a system service holds the focus, the app stays focused.
		{"dumpsys_window_focus_sony_tv.txt", "com.sony.dtv.sonysystemservice", "tunein.player"},
	}
	for _, tt := range tests {
		text := readTestdata(t, tt.file)
		w, l := ParseWindow(text), ParseWindowList(text)
		if w.FocusWindow != tt.window || l.FocusedApp != tt.app {
			t.Errorf("%s: focus %q app %q, want %q %q", tt.file, w.FocusWindow, l.FocusedApp, tt.window, tt.app)
		}
	}
	a := ParseActivities(readTestdata(t, "dumpsys_activity_resumed_google_tv.txt"))
	if a.Package != "com.google.android.tvlauncher" || a.Activity != "com.google.android.tvlauncher.MainActivity" {
		t.Errorf("google tv resumed = %+v", a)
	}
}

// A MediaTek tablet on Android 13 with the screen off and the keyguard up: each
// output says so, and the merged state reports the lock screen, not a pulled-down
// shade, and no keyboard.
func TestMediatekTabletLocked(t *testing.T) {
	win := ParseWindow(readTestdata(t, "dumpsys_window_api33_mtk_tablet_locked.txt"))
	if win.FocusWindow != "NotificationShade" || !win.Keyguard || !win.RotationKnown || win.Rotation != 0 {
		t.Errorf("window = %+v", win)
	}
	act := ParseActivities(readTestdata(t, "dumpsys_activity_api33_mtk_tablet_asleep.txt"))
	if act.Package != "com.mediatek.camera" || act.Activity != "com.mediatek.camera.CameraLauncher" || !act.KeyguardShowing || act.KeyguardOccluded {
		t.Errorf("activities = %+v", act)
	}
	pow := ParsePower(readTestdata(t, "dumpsys_power_api33_mtk_tablet_asleep.txt"))
	if pow.Wakefulness != "Asleep" || pow.ScreenOn || !pow.Known {
		t.Errorf("power = %+v", pow)
	}
	ime := ParseIMEShown(readTestdata(t, "dumpsys_input_method_api33_mtk_tablet.txt"))
	if ime {
		t.Error("keyboard shown; the dump says mInputShown=false")
	}
	st := mergeState(act, win, pow, 0, ime)
	if st.SystemUIKind != "" || !st.Keyguard || st.ScreenOn || st.Package != "com.mediatek.camera" {
		t.Errorf("state = %+v", st)
	}
}

// Bad input never panics, and never yields a window that could not be on screen.
func TestScreenStateParsersBadInput(t *testing.T) {
	for _, file := range []string{"dumpsys_window_windows_api33_appium.txt", "dumpsys_activity_api34.txt", "dumpsys_power_api34.txt", "dumpsys_input_method_shown.txt", "wm_density.txt"} {
		for name, in := range devicetest.BadInputs(readTestdata(t, file)) {
			act, win := ParseActivities(in), ParseWindow(in)
			st := mergeState(act, win, ParsePower(in), ParseDensity(in), ParseIMEShown(in))
			applyWindows(&st, ParseWindowList(in), false)
			for _, w := range st.Windows {
				if w.Visible && w.Bounds.Empty() {
					t.Errorf("%s/%s: visible window without bounds %+v", file, name, w)
				}
			}
			if st.Rotation < 0 || st.Rotation > 3 {
				t.Errorf("%s/%s: rotation %d", file, name, st.Rotation)
			}
		}
	}
	// Cut mid-record, the Android 13 list keeps the windows before the cut.
	full := readTestdata(t, "dumpsys_window_windows_api33_appium.txt")
	cut := ParseWindowList(full[:len(full)/2])
	if n := len(cut.Windows); n == 0 || n >= len(ParseWindowList(full).Windows) {
		t.Errorf("half a dump gave %d windows", n)
	}
}

// A uiautomator dump that is cut, laced with NUL bytes or megabytes long is an
// error that says so, in a readable length.
func TestDumpOutputBadInput(t *testing.T) {
	real, err := os.ReadFile(filepath.Join("testdata", "ManishAradwad__pocket-financer-android__window_dump.xml"))
	if err != nil {
		t.Fatal(err)
	}
	for name, in := range devicetest.BadInputs(string(real)) {
		h, err := parseDumpOutput([]byte(in))
		if err != nil && len(err.Error()) > 600 {
			t.Errorf("%s: error of %d bytes", name, len(err.Error()))
		}
		if err == nil && h == nil {
			t.Errorf("%s: no hierarchy and no error", name)
		}
	}
	if _, err := parseDumpOutput(real[:len(real)/2]); err == nil {
		t.Error("a dump cut in half parsed without an error")
	}
}

// FuzzScreenState: every dumpsys parser and the merge run on any text without a
// panic, and the state they give is one a screen can be in.
func FuzzScreenState(f *testing.F) {
	devicetest.Seed(f, "dumpsys_activity_api34.txt", "dumpsys_activity_api26.txt", "dumpsys_window_api34.txt",
		"dumpsys_window_focus_samsung_flip.txt", "dumpsys_power_api34.txt", "dumpsys_input_method_shown.txt", "wm_density.txt",
		"dumpsys_input_method_api33_mtk_tablet.txt", "dumpsys_window_api33_mtk_tablet_locked.txt")
	f.Fuzz(func(t *testing.T, s string) {
		win := ParseWindow(s)
		st := mergeState(ParseActivities(s), win, ParsePower(s), ParseDensity(s), ParseIMEShown(s))
		if st.Rotation < 0 || st.Rotation > 3 || (win.RotationKnown && win.Rotation != st.Rotation) {
			t.Fatalf("rotation %d (%+v)", st.Rotation, win)
		}
		if st.Density < 0 {
			t.Fatalf("density %d", st.Density)
		}
		if strings.Contains(st.Package, "/") || strings.Contains(st.Package, " ") {
			t.Fatalf("package %q", st.Package)
		}
	})
}

// FuzzParseDumpOutput: what uiautomator prints around its XML never panics the
// reader, and a hierarchy it returns has bounds that are empty or well-formed.
func FuzzParseDumpOutput(f *testing.F) {
	f.Add([]byte("UI hierchary dumped to: /dev/tty\n"))
	f.Add([]byte("ERROR: could not get idle state.\n"))
	f.Add([]byte(`<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="1"><node index="0" text="a" bounds="[0,0][10,10]"/></hierarchy>UI hierchary dumped to: /dev/tty`))
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := parseDumpOutput(b)
		if err != nil {
			return
		}
		for _, n := range h.Nodes {
			if b := n.Bounds; !b.Empty() && (b.Right < b.Left || b.Bottom < b.Top) {
				t.Fatalf("node bounds %+v", b)
			}
		}
	})
}

// The Pixel launcher's home screen on Android 8.1, pretty-printed as
// AndroidViewClient captured it: every node read, texts with non-ASCII intact.
func TestParseDumpPixelLauncherAPI27(t *testing.T) {
	nodes, err := ParseDump(readFixture(t, "dtmilano__AndroidViewClient__uiautomator_dump_api27.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes) != 29 {
		t.Errorf("%d nodes, want 29", len(nodes))
	}
	var clock, weather, apps bool
	for _, n := range nodes {
		clock = clock || (n.Text == "Sunday, May 19" && n.ResourceID == "com.google.android.apps.nexuslauncher:id/clock")
		weather = weather || n.Text == "56°F"
		apps = apps || n.ContentDescription == "Apps list"
		if n.Compose {
			t.Errorf("a View node marked compose: %+v", n)
		}
	}
	if !clock || !weather || !apps {
		t.Errorf("clock %v, weather %v, apps list %v", clock, weather, apps)
	}
}

// With two displays, dumpsys activity lists the cover screen's resumed activity
// first; the activity on top of everything is the one topResumedActivity names.
func TestParseActivitiesTopOfTwoDisplays(t *testing.T) {
	text := "ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n" +
		"Display #1 (activities from top to bottom):\n" +
		"  ResumedActivity: ActivityRecord{14d88c3 u0 com.android.systemui/.subscreen.SubHomeActivity t9}\n" +
		"Display #0 (activities from top to bottom):\n" +
		"  * Task{8a1 #409 type=standard A=10300:eu.niko.smart.universal U=0 visible=true mode=fullscreen}\n" +
		"  ResumedActivity: ActivityRecord{d72327 u0 eu.niko.smart.universal/crc648a3abc16689e594e.MainActivity t409}\n" +
		"  topResumedActivity=ActivityRecord{d72327 u0 eu.niko.smart.universal/crc648a3abc16689e594e.MainActivity t409}\n"
	a := ParseActivities(text)
	if a.Package != "eu.niko.smart.universal" || a.Activity != "crc648a3abc16689e594e.MainActivity" || a.WindowMode != "FULLSCREEN" {
		t.Errorf("%+v", a)
	}
}

// FuzzSidekickNodes: whatever inspection an app's sidekick answers, mapping it onto
// the screen never panics, and every node it keeps has a uid and sane bounds.
func FuzzSidekickNodes(f *testing.F) {
	for _, name := range []string{"inspect.response.json", "inspect_errors.response.json", "inspect_no_activity.response.json"} {
		f.Add(sidekicktest.Message(f, name))
	}
	front := ScreenState{Package: "com.example.notes", Activity: "com.example.notes.LoginActivity", ScreenOn: true,
		Windows: []Window{{Type: WindowApp, Package: "com.example.notes", Visible: true, Bounds: Bounds{Left: 0, Top: 1240, Right: 1080, Bottom: 2400}}}}
	f.Fuzz(func(t *testing.T, b []byte) {
		var resp struct{ Result SidekickInspection }
		if json.Unmarshal(b, &resp) != nil {
			return
		}
		nodes, err := SidekickNodes(&resp.Result, front, "com.example.notes")
		if err != nil {
			return
		}
		for _, n := range nodes {
			if n.UID == "" || n.Bounds.Right < n.Bounds.Left || n.Bounds.Bottom < n.Bounds.Top {
				t.Fatalf("node %+v", n)
			}
		}
	})
}

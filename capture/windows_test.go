package capture

import (
	"os"
	"path/filepath"
	"testing"
)

func bx(l, t, r, b int) Bounds { return Bounds{Left: l, Top: t, Right: r, Bottom: b} }

// find returns the first window with that title.
func find(t *testing.T, ws []Window, title string) Window {
	t.Helper()
	for _, w := range ws {
		if w.Title == title {
			return w
		}
	}
	t.Fatalf("no window %q in %+v", title, ws)
	return Window{}
}

func TestParseWindowListRealDevices(t *testing.T) {
	tests := []struct {
		file  string
		count int
		want  []Window // checked by title; others only counted
	}{
		{"dumpsys_window_windows_api31_appium.txt", 8, []Window{
			{Title: "pip-dismiss-overlay", Type: WindowSystem, Package: "com.android.systemui", Bounds: bx(0, 1592, 1080, 2280)},
			{Title: "NavigationBar0", Type: WindowNavigationBar, Package: "com.android.systemui", Bounds: bx(0, 2148, 1080, 2280), Visible: true},
			{Title: "NotificationShade", Type: WindowNotificationShade, Package: "com.android.systemui", Bounds: bx(0, 0, 1080, 2280)},
			{Title: "StatusBar", Type: WindowStatusBar, Package: "com.android.systemui", Bounds: bx(0, 0, 1080, 83), Visible: true},
			{Title: "ShellDropTarget", Type: WindowOverlay, Package: "com.android.systemui", Bounds: bx(0, 0, 1080, 2280)},
			// The keyboard is GONE: an empty frame at the bottom edge.
			{Title: "InputMethod", Type: WindowIME, Package: "com.android.inputmethod.latin"},
			{Title: "com.android.launcher3/com.android.launcher3.uioverrides.QuickstepLauncher", Type: WindowApp, Package: "com.android.launcher3", Bounds: bx(0, 0, 1080, 2280), Visible: true},
			// The wallpaper is wider than the screen; bounds stay on screen.
			{Title: "com.android.systemui.ImageWallpaper", Type: WindowWallpaper, Package: "com.android.systemui", Bounds: bx(0, 0, 1080, 2280), Visible: true},
		}},
		// Android 13 wraps paramsForRotation over lines indented by one and two
		// spaces, and prints the frame only in its Frames line.
		{"dumpsys_window_windows_api33_appium.txt", 12, []Window{
			{Title: "ScreenDecorOverlayBottom", Type: WindowSystem, Package: "com.android.systemui", Bounds: bx(0, 2214, 1080, 2280)},
			{Title: "NavigationBar0", Type: WindowNavigationBar, Package: "com.android.systemui", Bounds: bx(0, 2148, 1080, 2280), Visible: true},
			{Title: "StatusBar", Type: WindowStatusBar, Package: "com.android.systemui", Bounds: bx(0, 0, 1080, 66), Visible: true},
			{Title: "ShellDropTarget", Type: WindowOverlay, Package: "com.android.systemui", Bounds: bx(0, 0, 1080, 2280)},
			{Title: "InputMethod", Type: WindowIME, Package: "com.google.android.inputmethod.latin", Bounds: bx(0, 2148, 1080, 2280)},
			{Title: "com.android.systemui.ImageWallpaper", Type: WindowWallpaper, Package: "com.android.systemui", Bounds: bx(0, 0, 1080, 2280), Visible: true},
		}},
		// A whole `dumpsys window` of a MediaTek tablet on Android 13, screen off
		// behind the keyguard: the shade is focused and shown, every app is hidden.
		{"dumpsys_window_api33_mtk_tablet_locked.txt", 16, []Window{
			{Title: "NotificationShade", Type: WindowNotificationShade, Package: "com.android.systemui", Bounds: bx(0, 0, 480, 800), Visible: true, Focused: true},
			{Title: "StatusBar", Type: WindowStatusBar, Package: "com.android.systemui", Bounds: bx(0, 0, 480, 36), Visible: true},
			{Title: "NavigationBar0", Type: WindowNavigationBar, Package: "com.android.systemui", Bounds: bx(0, 728, 480, 800)},
			{Title: "InputMethod", Type: WindowIME, Package: "com.android.inputmethod.latin", Bounds: bx(0, 728, 480, 800)},
			{Title: "com.mediatek.camera/com.mediatek.camera.CameraLauncher", Type: WindowApp, Package: "com.mediatek.camera", Bounds: bx(0, 0, 480, 800)},
			{Title: "com.android.systemui.ImageWallpaper", Type: WindowWallpaper, Package: "com.android.systemui", Bounds: bx(0, 0, 480, 800), Visible: true},
		}},
		{"dumpsys_window_windows_api30_appium.txt", 10, []Window{
			{Title: "NavigationBar0", Type: WindowNavigationBar, Package: "com.android.systemui", Bounds: bx(0, 1794, 1080, 1920), Visible: true},
			{Title: "StatusBar", Type: WindowStatusBar, Package: "com.android.systemui", Bounds: bx(0, 0, 1080, 63), Visible: true},
			{Title: "NotificationShade", Type: WindowNotificationShade, Package: "com.android.systemui", Bounds: bx(0, 0, 1080, 1920)},
			{Title: "Application Not Responding: com.android.systemui", Type: WindowOverlay, Package: "android", Bounds: bx(28, 671, 1052, 1185), Visible: true},
			{Title: "InputMethod", Type: WindowIME, Package: "com.google.android.inputmethod.latin", Bounds: bx(0, 1794, 1080, 1920)},
		}},
		{"dumpsys_window_windows_api17_avc.txt", 8, []Window{
			{Title: "StatusBar", Type: WindowStatusBar, Bounds: bx(0, 0, 480, 38), Visible: true},
			// The pulled-up shade sits above the screen.
			{Title: "StatusBarExpanded", Type: WindowNotificationShade},
			{Title: "Keyguard", Type: WindowKeyguard, Bounds: bx(0, 38, 480, 800)},
			{Title: "com.dtmilano.android.sampleui/com.dtmilano.android.sampleui.MainActivity", Type: WindowApp, Package: "com.dtmilano.android.sampleui", Bounds: bx(0, 0, 480, 800), Visible: true, Focused: true},
			{Title: "com.android.launcher/com.android.launcher2.Launcher", Type: WindowApp, Package: "com.android.launcher", Bounds: bx(0, 0, 480, 800)},
			{Title: "RecentsPanel", Type: WindowSystem, Bounds: bx(0, 0, 480, 800)},
		}},
	}
	for _, tt := range tests {
		for ending, text := range lineEndings(readTestdata(t, tt.file)) {
			list := ParseWindowList(text)
			if list.Unread != 0 {
				t.Errorf("%s (%s): %d unread lines", tt.file, ending, list.Unread)
			}
			if len(list.Windows) != tt.count {
				t.Errorf("%s (%s): %d windows, want %d: %+v", tt.file, ending, len(list.Windows), tt.count, list.Windows)
			}
			for _, want := range tt.want {
				if got := find(t, list.Windows, want.Title); got != want {
					t.Errorf("%s (%s):\n got %+v\nwant %+v", tt.file, ending, got, want)
				}
			}
		}
	}
}

func TestParseWindowListKeyboardDialogSecure(t *testing.T) {
	kb := ParseWindowList(readTestdata(t, "dumpsys_window_windows_api34_keyboard.txt"))
	ime := find(t, kb.Windows, "InputMethod")
	// The keyboard's window fills the screen; the keys are its touchable region.
	if ime.Type != WindowIME || !ime.Visible || ime.Bounds != (bx(0, 1368, 1080, 2400)) {
		t.Errorf("ime = %+v", ime)
	}
	var st ScreenState
	applyWindows(&st, kb, false)
	if !st.IMEVisible || st.Secure {
		t.Errorf("keyboard state = %+v", st)
	}
	if w := st.WindowAt(540, 2000); w == nil || w.Type != WindowIME {
		t.Errorf("WindowAt on the keys = %+v", w)
	}
	if w := st.WindowAt(540, 2380); w == nil || w.Type != WindowNavigationBar {
		t.Errorf("WindowAt on the navigation bar = %+v", w)
	}
	if w := st.WindowAt(540, 600); w == nil || w.Type != WindowApp || !w.Focused {
		t.Errorf("WindowAt above the keys = %+v", w)
	}
	if k := st.Keyboard(); k == nil || *k != bx(0, 1368, 1080, 2400) || st.Dialog() != nil {
		t.Errorf("keyboard %v, dialog %v", k, st.Dialog())
	}

	sd := ParseWindowList(readTestdata(t, "dumpsys_window_windows_api34_secure_dialog.txt"))
	if sd.FocusedApp != "com.example.bank" {
		t.Errorf("focused app = %q", sd.FocusedApp)
	}
	dlg := sd.Windows[2]
	if dlg.Type != WindowDialog || !dlg.Focused || dlg.Bounds != (bx(780, 240, 1620, 840)) || dlg.Secure {
		t.Errorf("dialog = %+v", dlg)
	}
	if app := sd.Windows[3]; app.Type != WindowApp || app.Focused || !app.Secure || !app.Visible {
		t.Errorf("activity = %+v", app)
	}
	st = ScreenState{}
	applyWindows(&st, sd, false)
	if !st.Secure || st.IMEVisible {
		t.Errorf("secure state = %+v", st)
	}
	if d := st.Dialog(); d == nil || d.Bounds != bx(780, 240, 1620, 840) || st.Keyboard() != nil {
		t.Errorf("dialog %v, keyboard %v", d, st.Keyboard())
	}
	// Another app's FLAG_SECURE window does not make this screen protected.
	other := ParseWindowList(readTestdata(t, "dumpsys_window_windows_api34_secure_dialog.txt"))
	other.FocusedApp = "com.example.notes"
	st = ScreenState{}
	applyWindows(&st, other, false)
	if st.Secure {
		t.Error("a secure window of another app marked the screen secure")
	}
}

func TestParseWindowListFocusOnly(t *testing.T) {
	l := ParseWindowList(readTestdata(t, "dumpsys_window_focus_sony_tv.txt"))
	if len(l.Windows) != 0 || l.FocusedApp != "tunein.player" {
		t.Errorf("sony = %+v", l)
	}
	if l := ParseWindowList(""); len(l.Windows) != 0 || l.FocusedApp != "" {
		t.Errorf("empty = %+v", l)
	}
}

func TestHexSecureFlag(t *testing.T) {
	if !hasSecureFlag([]string{"#1812100"}) || hasSecureFlag([]string{"#1810100"}) || hasSecureFlag([]string{"#zz"}) {
		t.Error("hex FLAG_SECURE misread")
	}
}

// FuzzParseWindowList: any text parses without a panic, and every window it reports
// has a type and bounds that are empty or well-formed.
func FuzzParseWindowList(f *testing.F) {
	// Small seeds: the fuzzer mutates large ones slowly.
	for _, name := range []string{"dumpsys_window_windows_api34_keyboard.txt", "dumpsys_window_windows_api34_secure_dialog.txt", "dumpsys_window_windows_api33_appium.txt"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("  Window #0 Window{1 u0 x}:\n    mFrame=[5,5][1,1] ty=INPUT_METHOD touchable region=SkRegion((9,9,0,0))\n")
	f.Fuzz(func(t *testing.T, s string) {
		st := ScreenState{}
		applyWindows(&st, ParseWindowList(s), false)
		for _, w := range st.Windows {
			if w.Type == "" || (!w.Bounds.Empty() && (w.Bounds.Right <= w.Bounds.Left || w.Bounds.Bottom <= w.Bounds.Top)) {
				t.Fatalf("window %+v", w)
			}
			if w.Visible && w.Bounds.Empty() {
				t.Fatalf("visible window with empty bounds: %+v", w)
			}
		}
		_ = st.Keyboard()
		_ = st.Dialog()
	})
}

// A line the parser does not know before the first record is counted, not lost
// silently; the records after it are still read.
func TestParseWindowListCountsUnknownLines(t *testing.T) {
	text := "WINDOW MANAGER WINDOWS (dumpsys window windows)\n  mSomethingNew=1\n" +
		"  Window #0 Window{abc123 u0 StatusBar}:\n    package=com.android.systemui\n" +
		"    mAttrs={(0,0)(fillx66) ty=STATUS_BAR\n  fl=NOT_FOCUSABLE\n  bhv=DEFAULT}\n" +
		"    Frames: parent=[0,0][1080,2280] display=[0,0][1080,2280] frame=[0,0][1080,66]\n    isVisible=true\n" +
		"  mGlobalConfiguration={1.0 winConfig={ mBounds=Rect(0, 0 - 1080, 2280)}}\n"
	list := ParseWindowList(text)
	if list.Unread != 1 || len(list.Windows) != 1 {
		t.Fatalf("unread %d, windows %+v", list.Unread, list.Windows)
	}
	if w := list.Windows[0]; w.Bounds != bx(0, 0, 1080, 66) || !w.Visible {
		t.Errorf("status bar %+v", w)
	}
}

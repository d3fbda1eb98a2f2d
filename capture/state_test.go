package capture

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// lineEndings runs a parser check on LF, CRLF and the CR CR LF that adb shell v1
// produces when the device side already wrote CRLF.
func lineEndings(s string) map[string]string {
	lf := strings.ReplaceAll(s, "\r\n", "\n")
	return map[string]string{
		"lf":     lf,
		"crlf":   strings.ReplaceAll(lf, "\n", "\r\n"),
		"crcrlf": strings.ReplaceAll(lf, "\n", "\r\r\n"),
	}
}

func TestParseActivities(t *testing.T) {
	tests := []struct {
		file string
		want ActivitiesInfo
	}{
		{"dumpsys_activity_api34.txt", ActivitiesInfo{Package: "com.example.notes", Activity: "com.example.notes.ui.EditorActivity", WindowMode: "FULLSCREEN"}},
		{"dumpsys_activity_api29.txt", ActivitiesInfo{Package: "com.example.shop", Activity: "com.example.shop.checkout.CheckoutActivity",
			WindowMode: "MULTI_WINDOW", KeyguardShowing: true, KeyguardOccluded: true}},
		{"dumpsys_activity_api26.txt", ActivitiesInfo{Package: "com.legacy.app", Activity: "com.legacy.app.HomeActivity"}},
	}
	for _, tt := range tests {
		for ending, text := range lineEndings(readTestdata(t, tt.file)) {
			if got := ParseActivities(text); got != tt.want {
				t.Errorf("%s (%s) = %+v, want %+v", tt.file, ending, got, tt.want)
			}
		}
	}
	if got := ParseActivities(""); got != (ActivitiesInfo{}) {
		t.Errorf("empty output = %+v", got)
	}
}

func TestParseWindow(t *testing.T) {
	tests := []struct {
		file string
		want WindowInfo
	}{
		{"dumpsys_window_api34.txt", WindowInfo{FocusPackage: "com.example.notes", FocusActivity: "com.example.notes.ui.EditorActivity",
			FocusWindow: "com.example.notes/com.example.notes.ui.EditorActivity", Rotation: 1, RotationKnown: true}},
		{"dumpsys_window_api28_locked.txt", WindowInfo{FocusWindow: "StatusBar", RotationKnown: true, Keyguard: true}},
		{"dumpsys_window_api31_permission.txt", WindowInfo{FocusPackage: "com.google.android.permissioncontroller",
			FocusActivity: "com.android.permissioncontroller.permission.ui.GrantPermissionsActivity",
			FocusWindow:   "com.google.android.permissioncontroller/com.android.permissioncontroller.permission.ui.GrantPermissionsActivity",
			RotationKnown: true}},
	}
	for _, tt := range tests {
		for ending, text := range lineEndings(readTestdata(t, tt.file)) {
			if got := ParseWindow(text); got != tt.want {
				t.Errorf("%s (%s) = %+v, want %+v", tt.file, ending, got, tt.want)
			}
		}
	}
}

func TestParsePowerDensityIME(t *testing.T) {
	power := []struct {
		file string
		want PowerInfo
	}{
		{"dumpsys_power_api34.txt", PowerInfo{Wakefulness: "Awake", ScreenOn: true, Known: true}},
		{"dumpsys_power_asleep.txt", PowerInfo{Wakefulness: "Asleep", Known: true}},
		{"dumpsys_power_display_only.txt", PowerInfo{Known: true}},
	}
	for _, tt := range power {
		for ending, text := range lineEndings(readTestdata(t, tt.file)) {
			if got := ParsePower(text); got != tt.want {
				t.Errorf("%s (%s) = %+v, want %+v", tt.file, ending, got, tt.want)
			}
		}
	}
	if got := ParsePower("  mScreenOn=true\n"); !got.ScreenOn || !got.Known {
		t.Errorf("legacy mScreenOn = %+v", got)
	}
	if got := ParseDensity(readTestdata(t, "wm_density_override_crlf.txt")); got != 480 {
		t.Errorf("override density = %d", got)
	}
	if got := ParseDensity(readTestdata(t, "wm_density.txt")); got != 440 {
		t.Errorf("density = %d", got)
	}
	if !ParseIMEShown(readTestdata(t, "dumpsys_input_method_shown.txt")) || ParseIMEShown(readTestdata(t, "dumpsys_input_method_hidden.txt")) {
		t.Error("IME visibility misread")
	}
}

func TestMergeState(t *testing.T) {
	s := mergeState(ParseActivities(readTestdata(t, "dumpsys_activity_api34.txt")),
		ParseWindow(readTestdata(t, "dumpsys_window_api34.txt")),
		ParsePower(readTestdata(t, "dumpsys_power_api34.txt")), 420, true)
	want := ScreenState{Package: "com.example.notes", Activity: "com.example.notes.ui.EditorActivity", Rotation: 1,
		Orientation: "LANDSCAPE", Density: 420, ScreenOn: true, Wakefulness: "Awake", WindowMode: "FULLSCREEN",
		SystemUIKind: "ime", FocusWindow: "com.example.notes/com.example.notes.ui.EditorActivity"}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("state = %+v\nwant    %+v", s, want)
	}
	// Android 9 lock screen: activity from the focused app, keyguard up, no shade claim.
	locked := mergeState(ActivitiesInfo{}, ParseWindow(readTestdata(t, "dumpsys_window_api28_locked.txt")),
		ParsePower(readTestdata(t, "dumpsys_power_asleep.txt")), 480, false)
	if !locked.Keyguard || locked.ScreenOn || locked.SystemUIKind != "" {
		t.Errorf("locked = %+v", locked)
	}
	// An activity shown over the lock screen (occluded keyguard) is not blocked.
	occluded := mergeState(ParseActivities(readTestdata(t, "dumpsys_activity_api29.txt")), WindowInfo{}, PowerInfo{}, 0, false)
	if occluded.Keyguard || !occluded.ScreenOn {
		t.Errorf("occluded = %+v", occluded)
	}
	perm := mergeState(ActivitiesInfo{}, ParseWindow(readTestdata(t, "dumpsys_window_api31_permission.txt")), PowerInfo{}, 0, false)
	if perm.SystemUIKind != "permission_dialog" {
		t.Errorf("permission dialog = %+v", perm)
	}
}

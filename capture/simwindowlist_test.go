package capture_test

import (
	"context"
	"strings"
	"testing"

	"fixthis/adb/adbtest"
	"fixthis/capture"
	"fixthis/sim"
)

// The simulated phone prints its window list in Android 13's record style, so the
// window parser takes the same path on it as on a real Android 13 phone: the system
// bars' paramsForRotation wrap at two spaces and one, the frame is in the Frames
// line only, and every window after the bars is still read.
func TestSimWindowListIsAndroid13Records(t *testing.T) {
	p := adbtest.StartPhone(t, sim.Options{Scenario: "demo", Logf: adbtest.Quiet})
	dev := p.Client.Device(p.Serial())
	ctx := context.Background()
	res, err := dev.Shell(ctx, "dumpsys window windows")
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("dumpsys window windows: %v exit %d", err, res.ExitCode)
	}
	text := string(res.Stdout)
	for _, want := range []string{"\n      paramsForRotation={", "\n  fl=", "\n providedInternalInsets=", "\n    Frames: parent=", " frame=", "\n     surface=", "\n    isVisible="} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in the window list", want)
		}
	}
	if strings.Contains(text, "\n    mFrame=") {
		t.Error("the frame is printed on an mFrame line, as Android 12 does")
	}
	list := capture.ParseWindowList(text)
	if list.Unread != 0 || len(list.Unreadable) != 0 {
		t.Errorf("unread %d, unreadable %q", list.Unread, list.Unreadable)
	}
	// The demo app carries the sidekick: its status pill is a record of the dump,
	// read and set apart from the windows.
	records := strings.Count(text, "\n  Window #")
	if list.SidekickStatus == nil || !list.SidekickStatus.Visible || list.SidekickStatus.Bounds.Empty() {
		t.Fatalf("sidekick status pill %+v", list.SidekickStatus)
	}
	if len(list.Windows)+1 != records || records < 6 {
		t.Fatalf("%d windows and the pill read of %d records", len(list.Windows), records)
	}
	var types []string
	for _, w := range list.Windows {
		types = append(types, string(w.Type))
		if w.Type == capture.WindowStatusBar && (!w.Visible || w.Bounds.Top != 0 || w.Bounds.Height() <= 0) {
			t.Errorf("status bar %+v", w)
		}
		if w.Type == capture.WindowNavigationBar && (!w.Visible || w.Bounds.Bottom != p.Device.Profile().Height) {
			t.Errorf("navigation bar %+v", w)
		}
	}
	if !strings.Contains(strings.Join(types, " "), "navigation_bar notification_shade status_bar ime") {
		t.Errorf("window types %v", types)
	}
	// The whole dump names the focus in its displays section, as Android 10+ does.
	res, err = dev.Shell(ctx, "dumpsys window")
	if err != nil {
		t.Fatal(err)
	}
	full := capture.ParseWindowList(string(res.Stdout))
	if full.FocusedApp != p.Device.Profile().App.Package || len(full.Windows)+1 != records {
		t.Errorf("whole dump: focused app %q, %d windows", full.FocusedApp, len(full.Windows))
	}
}

// The simulated phone's activity and keyboard dumps follow a real Android 13 phone's
// records (dumpsys_activity_api33_mtk_tablet_asleep.txt, dumpsys_input_method_api33_…):
// asleep, the task names its last paused activity and no top resumed one; awake, it
// names the resumed one; the parser reads from either the package the window
// dump names as the focused app.
func TestSimActivityAndKeyboardAreAndroid13Records(t *testing.T) {
	p := adbtest.StartPhone(t, sim.Options{Scenario: "demo", Logf: adbtest.Quiet})
	dev := p.Client.Device(p.Serial())
	ctx := context.Background()
	shell := func(cmd string) string {
		t.Helper()
		res, err := dev.Shell(ctx, cmd)
		if err != nil || res.ExitCode != 0 {
			t.Fatalf("%s: %v", cmd, err)
		}
		return string(res.Stdout)
	}
	for _, c := range []struct {
		key          string
		want, reject []string
	}{
		{"WAKEUP", []string{"\n    mResumedActivity: ActivityRecord{", "\n  topResumedActivity=ActivityRecord{", "\n    Resumed: ActivityRecord{", "\n  ResumedActivity: ActivityRecord{", "\nActivityTaskSupervisor state:\n"}, []string{"mResumedActivity=", "isSleeping=true"}},
		{"SLEEP", []string{"\n    mLastPausedActivity: ActivityRecord{", "\n    isSleeping=true", "\n  ResumedActivity: ActivityRecord{"}, []string{"topResumedActivity=", "mResumedActivity:"}},
	} {
		shell("input keyevent " + c.key)
		text := shell("dumpsys activity activities")
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: no %q", c.key, w)
			}
		}
		for _, r := range c.reject {
			if strings.Contains(text, r) {
				t.Errorf("%s: %q, which Android 13 does not print here", c.key, r)
			}
		}
		focused := capture.ParseWindowList(shell("dumpsys window")).FocusedApp
		if got := capture.ParseActivities(text); got.Package == "" || got.Package != focused {
			t.Errorf("%s: package %q, the window dump's focused app %q", c.key, got.Package, focused)
		}
	}
	ime := shell("dumpsys input_method")
	if !strings.Contains(ime, "mShowForced=false mInputShown=false\n") || capture.ParseIMEShown(ime) {
		t.Errorf("input_method: %q", ime)
	}
}

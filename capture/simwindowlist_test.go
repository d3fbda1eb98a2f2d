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
	records := strings.Count(text, "\n  Window #")
	if len(list.Windows) != records || records < 5 {
		t.Fatalf("%d windows read of %d records", len(list.Windows), records)
	}
	var types []string
	for _, w := range list.Windows {
		types = append(types, w.Type)
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
	if full.FocusedApp != p.Device.Profile().App.Package || len(full.Windows) != records {
		t.Errorf("whole dump: focused app %q, %d windows", full.FocusedApp, len(full.Windows))
	}
}

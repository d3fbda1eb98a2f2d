package sim

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"fixthis/capture"
)

// The simulated phone prints its window list in Android 13's record style, so the
// window parser takes the same path on it as on a real Android 13 phone: the system
// bars' paramsForRotation wrap at two spaces and one, the frame is in the Frames
// line only, and every window after the bars is still read.
func TestDumpWindowsAndroid13Records(t *testing.T) {
	ctx := context.Background()
	d, err := Start(ctx, Options{Scenario: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var out bytes.Buffer
	if st := d.runScript(ctx, "dumpsys window windows", nil, &out, io.Discard); st != 0 {
		t.Fatalf("exit %d", st)
	}
	text := out.String()
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
		if w.Type == capture.WindowNavigationBar && (!w.Visible || w.Bounds.Bottom != d.profile.Height) {
			t.Errorf("navigation bar %+v", w)
		}
	}
	if !strings.Contains(strings.Join(types, " "), "navigation_bar notification_shade status_bar ime") {
		t.Errorf("window types %v", types)
	}
	// The whole dump names the focus in its displays section, as Android 10+ does.
	out.Reset()
	if st := d.runScript(ctx, "dumpsys window", nil, &out, io.Discard); st != 0 {
		t.Fatalf("exit %d", st)
	}
	full := capture.ParseWindowList(out.String())
	if full.FocusedApp != d.profile.App.Package || len(full.Windows) != records {
		t.Errorf("whole dump: focused app %q, %d windows", full.FocusedApp, len(full.Windows))
	}
}

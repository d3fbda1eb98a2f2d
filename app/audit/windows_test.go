package audit

import (
	"testing"

	"fixthis/capture"
)

func TestCoveringWindows(t *testing.T) {
	kb := capture.Bounds{Top: 1500, Right: 1080, Bottom: 2400}
	ws := []capture.Window{
		{Type: capture.WindowIME, Visible: true, Bounds: kb},
		{Type: capture.WindowToast, Visible: false, Bounds: capture.Bounds{Right: 10, Bottom: 10}},
		{Type: capture.WindowStatusBar, Visible: true, Bounds: capture.Bounds{Right: 1080, Bottom: 63}},
		{Type: capture.WindowApp, Visible: true, Bounds: capture.Bounds{Right: 1080, Bottom: 2400}},
	}
	if got := CoveringWindows(ws); len(got) != 1 || got[0] != kb {
		t.Fatalf("covering windows %+v, want only the visible keyboard", got)
	}
}

func TestKnownCheck(t *testing.T) {
	for _, tc := range []struct {
		id   string
		want bool
	}{{CheckTouchTarget, true}, {CheckTextFieldWidth, true}, {"touch", false}, {"", false}, {"TOUCH_TARGET", false}} {
		if got := KnownCheck(tc.id); got != tc.want {
			t.Errorf("KnownCheck(%q) = %v", tc.id, got)
		}
	}
}

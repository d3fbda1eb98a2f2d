package app

import (
	"context"
	"image/png"
	"os"
	"testing"
	"time"

	"fixthis/internal/h264/h264test"
)

// TestRecordScreenWithoutAConsole is fixthis_record_screen's side in the app: no
// console watches, so the recording starts the video itself, keeps 2 s of the
// scrolling phone, and shows in the activity list.
func TestRecordScreenWithoutAConsole(t *testing.T) {
	e := newTestEnv(t)
	e.waitSimSelected()
	defer e.keepScrolling(4, 250*time.Millisecond, 50*time.Millisecond)()
	rec := e.app.feedback.Agent()
	if _, err := rec.RecordScreen(context.Background(), "emulator-9999", 2); err == nil {
		t.Error("a device that is not selected was recorded")
	}
	c, err := rec.RecordScreen(context.Background(), "", 2)
	if err != nil {
		t.Fatal(err)
	}
	if c.Source != "h264" || c.DurationMs < 1800 || c.DurationMs > 2200 || c.Frames < 2 {
		t.Fatalf("recording %+v", c)
	}
	p := h264test.Probe(t, c.Path)
	if p.Codec != "h264" || p.Frames != c.Frames || p.Duration < 1.8 || p.Duration > 2.2 {
		t.Errorf("ffprobe sees %+v, the tool says %+v", p, c)
	}
	f, err := os.Open(c.FrameStripPath)
	if err != nil {
		t.Fatalf("frame strip: %v", err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Errorf("strip does not decode: %v", err)
	}
	acts, err := e.store.DeviceActions(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(acts); n == 0 || acts[n-1].Action != "record" || acts[n-1].Outcome != "ok" {
		t.Errorf("activity list: %+v", acts)
	}
}

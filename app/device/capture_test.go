package device

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"fixthis/adb/adbtest"
	"fixthis/adb/sim"
)

// A capture with no earlier state check (`fixthis capture`) reads the screen state
// once: the read that finds the app's sidekick serves the capture too.
func TestCaptureReadsTheScreenStateOnce(t *testing.T) {
	var reads atomic.Int32
	logf := func(format string, args ...any) {
		if line := fmt.Sprintf(format, args...); strings.Contains(line, "dumpsys activity activities") && strings.Contains(line, " done in ") {
			reads.Add(1)
		}
	}
	p := adbtest.StartPhone(t, sim.Options{Scenario: "demo", LatencyScale: 0, Logf: logf})
	c := NewCapturer(p.Client)
	defer c.Close(context.Background())
	snap, err := c.Capture(context.Background(), p.Serial())
	if err != nil {
		t.Fatal(err)
	}
	if snap.State.Package == "" || len(snap.Nodes) == 0 {
		t.Fatalf("capture without state or tree: %+v", snap.State)
	}
	if n := reads.Load(); n != 1 {
		t.Errorf("the screen state was read %d times", n)
	}
}

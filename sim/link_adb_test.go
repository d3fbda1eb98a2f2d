// The link model as the adb server sees it.
package sim_test

import (
	"testing"
	"time"

	"fixthis/adb/adbtest"
	"fixthis/sim"
)

// A raw 1080x2400 frame is 10 MB: over usb2 (35 MB/s) it needs about 0.3 s through
// the real adb server, as on a phone on a USB 2 cable.
func TestLinkUSB2SlowsAFullFrame(t *testing.T) {
	srv := adbtest.StartServer(t)
	dev := srv.ConnectSim(t, sim.Options{Scenario: "demo", LatencyScale: 0, Link: sim.Links["usb2"]})
	start := time.Now()
	out := srv.MustADB(t, "-s", dev.Serial(), "exec-out", "screencap")
	took := time.Since(start)
	if len(out) != 16+1080*2400*4 {
		t.Fatalf("screencap returned %d bytes", len(out))
	}
	if took < 280*time.Millisecond || took > 3*time.Second {
		t.Errorf("a 10 MB frame over usb2 took %s, want about 0.3 s", took)
	}
}

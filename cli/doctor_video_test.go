package cli

import (
	"context"
	"strings"
	"testing"

	"fixthis/adb/adbtest"
	"fixthis/sim"
)

func TestDoctorSaysWhetherTheDeviceStreamsVideo(t *testing.T) {
	p := adbtest.StartPhone(t, sim.Options{Scenario: "demo", LatencyScale: 0, Logf: adbtest.Quiet})
	client := p.Client
	c := videoCheck(context.Background(), client, p.Serial())
	if !c.OK || !strings.Contains(c.Detail, "H.264 via screenrecord") {
		t.Errorf("video check on the sim: %+v", c)
	}
	// Gone device: reported, not checked.
	c = videoCheck(context.Background(), client, "127.0.0.1:1")
	if !c.OK || !strings.HasPrefix(c.Detail, "not checked") {
		t.Errorf("video check on a missing device: %+v", c)
	}
}

package cli

import (
	"context"
	"strings"
	"testing"

	"fixthis/adb"
	"fixthis/adb/adbtest"
	"fixthis/adb/sim"
)

func TestDoctorSaysWhetherTheDeviceStreamsVideo(t *testing.T) {
	srv := adbtest.StartServer(t)
	dev := srv.ConnectSim(t, sim.Options{Scenario: "demo", LatencyScale: 0, Logf: func(string, ...any) {}})
	client, err := adb.NewClient(adb.Options{Port: srv.Port})
	if err != nil {
		t.Fatal(err)
	}
	c := videoCheck(context.Background(), client, dev.Serial())
	if !c.OK || !strings.Contains(c.Detail, "H.264 via screenrecord") {
		t.Errorf("video check on the sim: %+v", c)
	}
	// Gone device: reported, not checked.
	c = videoCheck(context.Background(), client, "127.0.0.1:1")
	if !c.OK || !strings.HasPrefix(c.Detail, "not checked") {
		t.Errorf("video check on a missing device: %+v", c)
	}
}

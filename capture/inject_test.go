package capture_test

import (
	"context"
	"errors"
	"testing"

	"fixthis/adb"
	"fixthis/adb/adbtest"
	"fixthis/capture"
	"fixthis/sim"
)

// The package a sidekick is looked up for and the display a frame is taken of come
// from the phone's own dumpsys: a value that is no package name or display id is
// refused before it reaches a device command.
func TestCaptureValuesNeverRunOnThePhone(t *testing.T) {
	p := adbtest.StartPhone(t, sim.Options{Scenario: "demo", Logf: adbtest.Quiet})
	ctx := context.Background()
	dev := p.Client.Device(p.Serial())
	for _, c := range []struct {
		what   string
		probes []adbtest.Probe
		call   func(v string) error
	}{
		{"sidekick package", adbtest.Probes("com.fixthis.demo"), func(v string) error {
			_, err := capture.ReadSidekickSession(ctx, dev, v)
			return err
		}},
		{"display id", adbtest.Probes("0"), func(v string) error {
			_, err := capture.CaptureFrame(ctx, dev, v)
			return err
		}},
	} {
		tally := adbtest.Tally{What: c.what}
		for _, pr := range c.probes {
			tally.Sent++
			if err := c.call(pr.Value); errors.Is(err, adb.ErrInvalidArg) {
				tally.Refused++
			} else {
				t.Errorf("%s %s (%q) was not refused: %v", c.what, pr.Name, pr.Value, err)
			}
			if pw := adbtest.Pwned(p.Device); len(pw) > 0 {
				tally.Ran++
				t.Errorf("%s %s (%q) ran on the phone: %v", c.what, pr.Name, pr.Value, pw)
				for _, f := range pw { // keep going: every probe is counted
					if _, err := dev.Shell(ctx, "rm -f "+f); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		t.Log(tally)
	}
}

package evidence_test

import (
	"context"
	"testing"
	"time"

	"fixthis/adb/adbtest"
	"fixthis/app/evidence"
	"fixthis/sim"
)

// The package runtime evidence is collected for comes from a saved screen: a value
// that is no package name reaches none of pidof, logcat and dumpsys, and nothing it
// carries runs on the phone.
func TestEvidencePackageNeverRunsOnThePhone(t *testing.T) {
	c, dev := simDevice(t, sim.Options{Logf: func(string, ...any) {}})
	tally := adbtest.Tally{What: "runtime evidence"}
	for _, pr := range adbtest.Probes("com.fixthis.demo") {
		tally.Sent++
		a := evidence.Collect(context.Background(), c.Device(dev.Serial()), evidence.Request{Serial: dev.Serial(), Package: pr.Value,
			Since: time.Now().Add(-time.Minute), Timeout: time.Second})
		refused := true
		for _, at := range a.Attachments {
			refused = refused && at.Reason == evidence.ReasonNoPackage
		}
		if refused {
			tally.Refused++
		} else {
			t.Errorf("%s (%q) was collected: %+v", pr.Name, pr.Value, a)
		}
		if pw := adbtest.Pwned(dev); len(pw) > 0 {
			tally.Ran++
			t.Errorf("%s (%q) ran on the phone: %v", pr.Name, pr.Value, pw)
			for _, f := range pw { // keep going: every probe is counted
				if _, err := c.Shell(context.Background(), dev.Serial(), "rm -f "+f); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	t.Log(tally)
}

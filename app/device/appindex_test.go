package device

import (
	"context"
	"errors"
	"testing"

	"fixthis/adb/adbtest"
	"fixthis/capture"
	"fixthis/sim"
)

// The demo APK's index is read once per install: by range from the APK on every
// phone, sidekick or not; where dd cannot read it, with the phone's unzip (Android
// 10+) or through the sidekick on a phone without unzip; a second ask is the same
// index.
func TestAppSourceIndexOncePerInstall(t *testing.T) {
	for _, tc := range []struct {
		name       string
		scenario   string
		noSidekick bool
		noRange    bool
		from       string
	}{
		{"by range beside a sidekick", "demo", false, false, capture.IndexFromAPKRange},
		{"by range", "demo", true, false, capture.IndexFromAPKRange},
		{"by range on Android 9", adbtest.DemoOnAndroid9(t), false, false, capture.IndexFromAPKRange},
		{"unzip where dd fails", "demo", true, true, capture.IndexFromAPK},
		{"sidekick on Android 9 where dd fails", adbtest.DemoOnAndroid9(t), false, true, capture.IndexFromSidekick},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, dev, pkg := serviceWithApp(t, sim.Options{Scenario: tc.scenario, NoSidekick: tc.noSidekick}, tc.noRange)
			ctx := context.Background()
			first, from, err := s.Capturer.AppSourceIndex(ctx, dev.Serial(), pkg)
			if err != nil || from != tc.from || len(first.Entries) == 0 {
				t.Fatalf("first read: %v from %q", err, from)
			}
			again, _, err := s.Capturer.AppSourceIndex(ctx, dev.Serial(), pkg)
			if err != nil || again != first {
				t.Errorf("second read: %v, same index %v", err, again == first)
			}
			if _, _, err := s.Capturer.AppSourceIndex(ctx, dev.Serial(), "com.android.settings"); err == nil || errors.Is(err, context.Canceled) {
				t.Errorf("an app without an index: %v", err)
			}
		})
	}
}

// serviceWithApp starts a service on a simulated phone (whose dd answers nothing
// when noRange, so the APK cannot be read by range) and notes the phone's app as a
// first capture does, so its sidekick and its source index can be asked for.
func serviceWithApp(tb testing.TB, opts sim.Options, noRange bool) (*Service, *sim.Device, string) {
	tb.Helper()
	if noRange {
		opts.Outputs = adbtest.NoRangedRead(tb)
	}
	s, dev, _ := serviceOn(tb, opts)
	pkg := dev.Profile().App.Package
	s.Capturer.sidekicks.notePackage(dev.Serial(), pkg)
	return s, dev, pkg
}

package agentdevice

import (
	"context"
	"testing"

	"fixthis/adb/adbtest"
	"fixthis/app/display"
	"fixthis/sim"
)

// BenchmarkCheckSizes is the size check's budget on the simulated phone over a
// USB 2 link with a mid-range phone's command latency: three sizes checked,
// phone restored (8 s), and the restore alone after a tablet size (1 s).
func BenchmarkCheckSizes(b *testing.B) {
	e := newSizesEnv(b, sim.Options{Scenario: "demo", LatencyScale: 1, Link: sim.Links["usb2"], Logf: adbtest.Quiet})
	ctx := context.Background()
	b.Run("three", func(b *testing.B) {
		for b.Loop() {
			res, err := e.p.CheckSizes(ctx, "", e.session, e.fab, nil)
			if err != nil || len(res.Sizes) != 3 || !res.Restored {
				b.Fatalf("%+v %v", res, err)
			}
		}
	})
	b.Run("restore", func(b *testing.B) {
		tg := display.Target{Shell: e.client.Device(e.dev.Serial()), Serial: e.dev.Serial()}
		for b.Loop() {
			b.StopTimer()
			if _, _, err := e.m.SetSize(ctx, tg, display.Presets[2]); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			if _, restored, err := e.m.ResetSize(ctx, tg); err != nil || !restored {
				b.Fatalf("%v %v", restored, err)
			}
		}
	})
}

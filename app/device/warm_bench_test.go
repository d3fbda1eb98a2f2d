package device

import (
	"context"
	"testing"
	"time"
)

// BenchmarkFreezeStillScreen: a freeze on a screen that has been still for 2 s, on a
// simulated mid-range phone (its uiautomator dump takes about 800 ms) whose app has no
// sidekick, with and without the warm tree, side by side in one run.
func BenchmarkFreezeStillScreen(b *testing.B) {
	s, dev, _ := warmService(b, 1)
	ctx := context.Background()
	offer := s.Capturer.warm
	for _, mode := range []string{"uiautomator", "warm"} {
		b.Run(mode, func(b *testing.B) {
			s.Capturer.warm = nil
			if mode == "warm" {
				s.Capturer.warm = offer
			}
			for b.Loop() {
				b.StopTimer()
				time.Sleep(2 * time.Second) // still for 2 s: the warm dump has run
				b.StartTimer()
				fr, err := s.Freeze(ctx, dev.Serial())
				b.StopTimer()
				s.Resume()
				if err != nil {
					b.Fatal(err)
				}
				if fr.Snapshot.TreeWarm != (mode == "warm") {
					b.Fatalf("%s: tree warm = %v", mode, fr.Snapshot.TreeWarm)
				}
				b.StartTimer()
			}
		})
	}
}

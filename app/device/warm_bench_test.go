package device

import (
	"context"
	"testing"
	"time"

	"fixthis/adb"
	"fixthis/adb/adbtest"
	"fixthis/adb/sim"
	"fixthis/app/events"
)

// BenchmarkFreezeStillScreen: a freeze on a screen that has been still for 2 s, on a
// simulated mid-range phone (its uiautomator dump takes about 800 ms) whose app has no
// sidekick, with and without the warm tree, side by side in one run.
func BenchmarkFreezeStillScreen(b *testing.B) {
	srv := adbtest.StartServer(b)
	dev := srv.ConnectSim(b, sim.Options{Scenario: "demo", LatencyScale: 1, NoSidekick: true, Logf: func(string, ...any) {}})
	client, err := adb.NewClient(adb.Options{Port: srv.Port})
	if err != nil {
		b.Fatal(err)
	}
	s := New(Options{ADB: client, Bus: events.NewBus(64), Preview: VideoJPEG})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	defer s.Preview.Watch()()
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if _, err := s.Select(dev.Serial()); err == nil {
			break
		}
		if time.Now().After(deadline) {
			b.Fatal("the simulated phone never came online")
		}
	}
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

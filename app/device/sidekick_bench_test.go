package device

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"fixthis/adb/adbtest"
	"fixthis/app/source"
	"fixthis/app/source/sourcetest"
	"fixthis/capture"
	"fixthis/internal/sidekick"
	"fixthis/sim"
)

// BenchmarkFreezeSidekickStillScreen: a freeze on a screen still for 2 s, on a
// simulated mid-range phone on a USB 2 cable (35 MB/s: a raw 1080×2400 frame is
// ~10 MB, ~300 ms) whose app carries the sidekick (its inspection takes the scenario's
// 40 ms), with a console watching the live screen in each of the preview's two modes:
// h264 (the default: the phone's video, with raw stills beside it) and raw (raw
// frames, --preview jpeg). Each round freezes twice, interleaved so both see the
// same load: the freeze as it is (p50-ms, budget ≤ 100 ms: a kept still frame and a
// fresh tree, still_frame.go; png-p50-ms until its PNG is ready too; reused is the
// share of freezes that took a kept frame) and the whole capture a freeze made before
// (whole-p50-ms: frame, tree and state at once, then the PNG). cpu-ms is this
// process's CPU time per freeze, PNG included: FixThis and the simulated phone, which
// runs in it. load1 is the machine's one-minute load average when the mode finished.
func BenchmarkFreezeSidekickStillScreen(b *testing.B) {
	for _, mode := range previewModes {
		b.Run(mode.name, func(b *testing.B) {
			s, dev, _ := mode.start(b, sim.Options{Scenario: "demo", LatencyScale: 1, Link: sim.Links["usb2"]})
			benchFreezeStillScreen(b, s, dev.Serial())
		})
	}
}

func benchFreezeStillScreen(b *testing.B, s *Service, serial string) {
	ctx := context.Background()
	var took, pictured, whole, cpu, wholeCPU, frames, trees, states []time.Duration
	reused := 0
	for b.Loop() {
		b.StopTimer()
		time.Sleep(2 * time.Second)
		b.StartTimer()
		c0, start := cpuTime(b), time.Now()
		fr, err := s.Freeze(ctx, serial)
		took = append(took, time.Since(start))
		if err != nil {
			b.Fatal(err)
		}
		_, err = fr.PNG() // the picture the console fetches next
		pictured, cpu = append(pictured, time.Since(start)), append(cpu, cpuTime(b)-c0)
		b.StopTimer()
		s.Resume()
		if err != nil {
			b.Fatal(err)
		}
		if fr.Snapshot.TreeSource != capture.TreeFromSidekick {
			b.Fatalf("tree from %q (%v)", fr.Snapshot.TreeSource, fr.Snapshot.SidekickErr)
		}
		if fr.Snapshot.Timings.Frame == 0 {
			reused++
		}
		frames, trees = append(frames, fr.Snapshot.Timings.Frame), append(trees, fr.Snapshot.Timings.Tree)
		states = append(states, fr.Snapshot.Timings.State)

		time.Sleep(2 * time.Second)
		c0, start = cpuTime(b), time.Now()
		s.Preview.SetFrozen(true)
		k, err := s.keep(ctx, serial, "bench")
		if err == nil {
			_, err = k.PNG()
		}
		whole, wholeCPU = append(whole, time.Since(start)), append(wholeCPU, cpuTime(b)-c0)
		s.Resume()
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(p50(took)), "p50-ms")
	b.ReportMetric(ms(quantile(took, 0.9)), "p90-ms")
	b.ReportMetric(ms(p50(pictured)), "png-p50-ms")
	b.ReportMetric(float64(reused)/float64(len(took)), "reused")
	if cpuTimeKnown {
		b.ReportMetric(ms(p50(cpu)), "cpu-ms")
		b.ReportMetric(ms(p50(wholeCPU)), "whole-cpu-ms")
	}
	b.ReportMetric(ms(p50(frames)), "frame-p50-ms")
	b.ReportMetric(ms(p50(trees)), "tree-p50-ms")
	b.ReportMetric(ms(p50(states)), "state-p50-ms")
	b.ReportMetric(ms(p50(whole)), "whole-p50-ms")
	b.ReportMetric(ms(quantile(whole, 0.9)), "whole-p90-ms")
	if load, ok := loadAverage(); ok {
		b.ReportMetric(load, "load1")
	}
}

// loadAverage is the machine's one-minute load average (Linux: /proc/loadavg), so a
// figure measured on shared cores says what it competed with.
func loadAverage() (float64, bool) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, false
	}
	first, _, _ := strings.Cut(string(b), " ")
	v, err := strconv.ParseFloat(first, 64)
	return v, err == nil
}

// BenchmarkReadAppSourceIndex4MiB: the first read of a 4 MiB source index (the
// sidekick's cap) after an install, parsed. By range from the APK, what every phone
// takes: on Android 14 (`range`) and on Android 9 beside its sidekick
// (`range-android9`). Where dd cannot read the APK (its failed stat and dd are in
// the figure): the phone's unzip on Android 10+ (`apk`), the sidekick on Android 9,
// which has no unzip (`sidekick`).
// Budget: ≤ 300 ms, once per install.
func BenchmarkReadAppSourceIndex4MiB(b *testing.B) {
	dir := scenarioWithIndex(b, fourMiBIndex(b))
	for _, tc := range []struct {
		via      string
		android9 bool
		noRange  bool
		sidekick bool
		from     string
	}{
		{"range", false, false, false, capture.IndexFromAPKRange},
		{"range-android9", true, false, true, capture.IndexFromAPKRange},
		{"apk", false, true, false, capture.IndexFromAPK},
		{"sidekick", true, true, true, capture.IndexFromSidekick},
	} {
		b.Run(tc.via, func(b *testing.B) {
			opts := sim.Options{Scenario: dir, LatencyScale: 1, Link: sim.Links["usb2"], NoSidekick: !tc.sidekick}
			if tc.android9 {
				opts.Scenario = adbtest.OnAndroid9(b, dir)
			}
			s, dev, pkg := serviceWithApp(b, opts, tc.noRange)
			ctx := context.Background()
			if tc.sidekick {
				if sk, _ := s.Capturer.sidekicks.forDevice(ctx, dev.Serial()); sk == nil {
					b.Fatal("no sidekick")
				}
			}
			var took []time.Duration
			for b.Loop() {
				s.Capturer.appIndexes = appIndexes{} // a new install
				start := time.Now()
				idx, from, err := s.Capturer.AppSourceIndex(ctx, dev.Serial(), pkg)
				took = append(took, time.Since(start))
				if err != nil || len(idx.Entries) == 0 || from != tc.from {
					b.Fatalf("read: %v from %q", err, from)
				}
			}
			b.ReportMetric(float64(p50(took).Microseconds())/1000, "p50-ms")
		})
	}
}

func p50(d []time.Duration) time.Duration { return quantile(d, 0.5) }

// quantile is the q-quantile of d (nearest rank).
func quantile(d []time.Duration, q float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

// fourMiBIndex is an index just under the sidekick's 4 MiB cap.
func fourMiBIndex(tb testing.TB) []byte {
	tb.Helper()
	b, err := sourcetest.GrowDemoIndex(sidekick.MaxSourceIndexBytes)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// scenarioWithIndex copies the demo scenario to a new directory whose APK carries
// index.
func scenarioWithIndex(tb testing.TB, index []byte) string {
	tb.Helper()
	src := filepath.Join("..", "..", "sim", "scenario", "demo")
	dst := tb.TempDir()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dst, source.SourceIndexFileName), index, 0o644); err != nil {
		tb.Fatal(err)
	}
	return dst
}

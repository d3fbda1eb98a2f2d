package device

import (
	"context"
	"os"
	"path/filepath"
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
// simulated mid-range phone whose app carries the sidekick (its inspection takes the
// scenario's 40 ms): the tree comes from the sidekick, not uiautomator. Budget: p50
// ≤ 100 ms.
func BenchmarkFreezeSidekickStillScreen(b *testing.B) {
	s, dev, _ := serviceOn(b, sim.Options{Scenario: "demo", LatencyScale: 1})
	ctx := context.Background()
	var took, frames, trees []time.Duration
	for b.Loop() {
		b.StopTimer()
		time.Sleep(2 * time.Second)
		b.StartTimer()
		start := time.Now()
		fr, err := s.Freeze(ctx, dev.Serial())
		took = append(took, time.Since(start))
		b.StopTimer()
		s.Resume()
		if err != nil {
			b.Fatal(err)
		}
		if fr.Snapshot.TreeSource != capture.TreeFromSidekick {
			b.Fatalf("tree from %q (%v)", fr.Snapshot.TreeSource, fr.Snapshot.SidekickErr)
		}
		frames, trees = append(frames, fr.Snapshot.Timings.Frame), append(trees, fr.Snapshot.Timings.Tree)
		b.StartTimer()
	}
	b.ReportMetric(float64(p50(took).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(p50(frames).Microseconds())/1000, "frame-p50-ms")
	b.ReportMetric(float64(p50(trees).Microseconds())/1000, "tree-p50-ms")
}

// BenchmarkReadAppSourceIndex4MiB: the first read of a 4 MiB source index (the
// sidekick's cap) after an install, parsed: from the APK with the phone's unzip (what
// Android 10+ phones take, sidekick or not), and through the sidekick on an Android 9
// phone, which has no unzip.
// Budget: ≤ 300 ms, once per install.
func BenchmarkReadAppSourceIndex4MiB(b *testing.B) {
	dir := scenarioWithIndex(b, fourMiBIndex(b))
	for _, via := range []string{"sidekick", "apk"} {
		b.Run(via, func(b *testing.B) {
			scenario := dir
			if via == "sidekick" { // a phone without unzip, where the sidekick sends it
				scenario = adbtest.OnAndroid9(b, dir)
			}
			s, dev, _ := serviceOn(b, sim.Options{Scenario: scenario, LatencyScale: 1, NoSidekick: via == "apk"})
			ctx := context.Background()
			pkg := dev.Profile().App.Package
			s.Capturer.sidekicks.notePackage(dev.Serial(), pkg)
			if via == "sidekick" {
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
				if err != nil || len(idx.Entries) == 0 || from != map[string]string{"sidekick": capture.IndexFromSidekick, "apk": capture.IndexFromAPK}[via] {
					b.Fatalf("read: %v from %q", err, from)
				}
			}
			b.ReportMetric(float64(p50(took).Microseconds())/1000, "p50-ms")
		})
	}
}

func p50(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s[len(s)/2]
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

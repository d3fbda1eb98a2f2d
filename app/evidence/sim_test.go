package evidence_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fixthis/adb"
	"fixthis/adb/adbtest"
	"fixthis/app/evidence"
	"fixthis/sim"
)

// simDevice is a simulated phone on a private adb server with the real
// client talking to it; latency is the scenario's latency model (1: a
// mid-range phone).
func simDevice(t testing.TB, opts sim.Options) (*adb.Client, *sim.Device) {
	t.Helper()
	if opts.Scenario == "" {
		opts.Scenario = "demo"
	}
	p := adbtest.StartPhone(t, opts)
	return p.Client, p.Device
}

func store(t testing.TB) *evidence.Store {
	return &evidence.Store{Root: filepath.Join(t.TempDir(), "runtime-evidence"), Display: ".fixthis/runtime-evidence"}
}

func TestCollectFromTheSimulatedPhone(t *testing.T) {
	c, dev := simDevice(t, sim.Options{LatencyScale: 1})
	pkg := dev.Profile().App.Package
	since := time.Now()
	a := evidence.Collect(context.Background(), c.Device(dev.Serial()), evidence.Request{Serial: dev.Serial(), Package: pkg, Since: since.Add(-time.Minute), Store: store(t), SessionID: "s1"})
	if a.Status != evidence.StatusComplete {
		t.Fatalf("attempt %+v", a)
	}
	if a.Attachment(evidence.KindLogcat).Logcat.Crash != nil || len(a.Attachment(evidence.KindLogcat).Logcat.Pids) != 1 {
		t.Errorf("logcat %+v", a.Attachment(evidence.KindLogcat).Logcat)
	}
	if f := a.Attachment(evidence.KindFrames).Frames; f == nil || f.P99Ms == nil || f.TotalFrames == 0 {
		t.Errorf("frames %+v", f)
	}
	if m := a.Attachment(evidence.KindMemory).Memory; m == nil || m.TotalPSSKB == 0 || m.JavaHeapKB == nil {
		t.Errorf("memory %+v", m)
	}
	t.Logf("preset on the simulated phone: %d ms", a.DurationMs)

	// The app crashes with its own code on the stack; its process is gone.
	err := dev.CrashApp(sim.Crash{
		Exception: "java.lang.IllegalStateException: Trail 42 has no start point",
		Frames: []string{
			"com.fixthis.demo.ui.format.TrailFormatKt.formatDistance(TrailFormat.kt:27)",
			"androidx.compose.runtime.Recomposer.performRecompose(Recomposer.kt:1375)",
			"android.os.Looper.loop(Looper.java:294)",
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	a = evidence.Collect(context.Background(), c.Device(dev.Serial()), evidence.Request{Serial: dev.Serial(), Package: pkg, Since: since, Store: store(t), SessionID: "s1"})
	if a.Status != evidence.StatusPartial {
		t.Fatalf("after the crash: %+v", a)
	}
	crash := a.Attachment(evidence.KindLogcat).Logcat.Crash
	if crash == nil || crash.Exception != "java.lang.IllegalStateException" || crash.Frame != "com.fixthis.demo.ui.format.TrailFormatKt.formatDistance(TrailFormat.kt:27)" {
		t.Errorf("crash %+v", crash)
	}
	if !strings.HasPrefix(a.Attachment(evidence.KindLogcat).Summary, "crash: java.lang.IllegalStateException: Trail 42 has no start point at com.fixthis.demo.") {
		t.Errorf("summary %q", a.Attachment(evidence.KindLogcat).Summary)
	}
	for _, kind := range []evidence.Kind{evidence.KindFrames, evidence.KindMemory} {
		if at := a.Attachment(kind); at.Status != evidence.StatusUnsupported || at.Reason != evidence.ReasonProcessNotRunning {
			t.Errorf("%s after the crash: %+v", kind, at)
		}
	}
}

// Real outputs replayed through the simulated phone, with one collector slowed
// past its timeout.
func TestCollectReplaysPinnedOutputs(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"logcat.txt":          "logcat_crash.txt",
		"dumpsys_gfxinfo.txt": "gfxinfo_api28.txt",
		"dumpsys_meminfo.txt": "meminfo_api23.txt",
	} {
		b, err := os.ReadFile(filepath.Join("testdata", src))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "dumpsys_meminfo.delay"), []byte("5s"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, dev := simDevice(t, sim.Options{LatencyScale: 0, Outputs: dir})
	st := store(t)
	t0 := time.Now()
	a := evidence.Collect(context.Background(), c.Device(dev.Serial()), evidence.Request{Serial: dev.Serial(), Package: "com.fixthis.demo", Timeout: 500 * time.Millisecond, Store: st, SessionID: "s1", CaptureID: "c1"})
	if d := time.Since(t0); d > 2*time.Second {
		t.Errorf("collection took %v with a 500ms timeout", d)
	}
	if a.Status != evidence.StatusPartial || a.Attachment(evidence.KindMemory).Reason != evidence.ReasonTimeout || a.Warnings[0] != "memory-timeout" {
		t.Fatalf("attempt %+v", a)
	}
	if got := a.Attachment(evidence.KindFrames).Summary; got != "43 frames, 7 janky (16.28%); p50 5ms p90 69ms p95 150ms p99 200ms" {
		t.Errorf("frames %q", got)
	}
	if a.Attachment(evidence.KindLogcat).Logcat.Crash == nil {
		t.Errorf("logcat %+v", a.Attachment(evidence.KindLogcat))
	}
	raw, err := os.ReadFile(filepath.Join(st.Root, "s1", "c1", "logcat.txt"))
	if err != nil || strings.Contains(string(raw), "ana.lopez@example.com") || !strings.Contains(string(raw), "[REDACTED]") {
		t.Errorf("stored logcat (%v):\n%s", err, raw)
	}
}

// BenchmarkPreset is the whole preset's collection time on the simulated phone
// with its latency model on (budget 3 s, aim 1 s).
func BenchmarkPreset(b *testing.B) {
	c, dev := simDevice(b, sim.Options{LatencyScale: 1, Logf: func(string, ...any) {}})
	req := evidence.Request{Serial: dev.Serial(), Package: dev.Profile().App.Package, Store: store(b), SessionID: "bench"}
	for b.Loop() {
		if a := evidence.Collect(context.Background(), c.Device(dev.Serial()), req); a.Status != evidence.StatusComplete {
			b.Fatalf("attempt %+v", a)
		}
	}
}

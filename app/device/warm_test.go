package device

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"fixthis/adb"
	"fixthis/adb/adbtest"
	"fixthis/app/events"
	"fixthis/capture"
	"fixthis/internal/eventually"
	"fixthis/sim"
)

// warmService runs a Service on a simulated phone whose app has no sidekick, as most
// apps have not, with a console watching the live preview (raw frames). scale is the
// phone's latency model (0: none, 1: a mid-range phone).
func warmService(t testing.TB, scale float64) (*Service, *sim.Device, *adb.Client) {
	t.Helper()
	return serviceOn(t, sim.Options{Scenario: "demo", LatencyScale: scale, NoSidekick: true})
}

// serviceOn runs a Service on a simulated phone of opts, selected and with the live
// preview watched on raw frames.
func serviceOn(t testing.TB, opts sim.Options) (*Service, *sim.Device, *adb.Client) {
	t.Helper()
	return serviceIn(t, opts, VideoJPEG)
}

// serviceIn is serviceOn with the preview's transport set to mode.
func serviceIn(t testing.TB, opts sim.Options, mode VideoMode) (*Service, *sim.Device, *adb.Client) {
	t.Helper()
	srv := adbtest.StartServer(t)
	opts.Logf = func(string, ...any) {}
	dev := srv.ConnectSim(t, opts)
	client, err := adb.NewClient(adb.Options{Port: srv.Port})
	if err != nil {
		t.Fatal(err)
	}
	s := New(Options{ADB: client, Bus: events.NewBus(64), Preview: mode})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	unwatch := s.Preview.Watch()
	t.Cleanup(unwatch)
	eventually.True(t, 15*time.Second, "the simulated phone online", func() bool {
		_, err := s.Select(dev.Serial())
		return err == nil
	})
	return s, dev, client
}

func (w *warmer) dumpCount() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.dumps
}

func waitDumps(t *testing.T, s *Service, n int) {
	t.Helper()
	eventually.Get(t, 20*time.Second, fmt.Sprintf("%d warm dumps", n), s.warm.dumpCount,
		func(dumps int) bool { return dumps >= n }, func(dumps int) string { return fmt.Sprintf("%d dumps", dumps) })
}

// On a still screen the tree is dumped once in the background, a freeze uses it, and
// a still screen is not dumped again however long it stays.
func TestWarmTreeServesAFreezeOnAStillScreen(t *testing.T) {
	s, dev, _ := warmService(t, 0)
	waitDumps(t, s, 1)
	fr, err := s.Freeze(context.Background(), dev.Serial())
	if err != nil {
		t.Fatal(err)
	}
	s.Resume()
	snap := fr.Snapshot
	if !snap.TreeWarm || len(snap.Nodes) == 0 {
		t.Fatalf("freeze on a still screen: warm=%v, %d nodes (%v)", snap.TreeWarm, len(snap.Nodes), snap.TreeErr)
	}
	time.Sleep(3 * warmStillFor)
	if n := s.warm.dumpCount(); n != 1 {
		t.Errorf("%d warm dumps of one still screen, want 1", n)
	}
}

// A screen changed right before the freeze, before the live preview could notice,
// never gets the old tree: the frame's pixels differ, so the freeze dumps.
func TestWarmTreeIsNeverStale(t *testing.T) {
	s, dev, client := warmService(t, 0)
	waitDumps(t, s, 1)
	old := s.warm.current(dev.Serial(), s.Preview.changes.Load())
	if old == nil {
		t.Fatal("no warm tree offered on a still screen")
	}
	// Open the first trail: another screen, another tree.
	d := client.Device(dev.Serial())
	if res, err := d.Shell(context.Background(), "input tap 540 700"); err != nil || res.ExitCode != 0 {
		t.Fatalf("tap: %v (%+v)", err, res)
	}
	fr, err := s.Freeze(context.Background(), dev.Serial())
	if err != nil {
		t.Fatal(err)
	}
	s.Resume()
	if fr.Snapshot.TreeWarm {
		t.Fatal("a changed screen was given the warm tree of the screen before")
	}
	fresh, err := capture.DumpTree(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := capture.StructureHash(fr.Snapshot.Nodes), capture.StructureHash(fresh.Nodes); got != want {
		t.Errorf("the freeze's tree is not the new screen's (%d nodes, fresh dump %d)", len(fr.Snapshot.Nodes), len(fresh.Nodes))
	}
	if capture.StructureHash(old.Hierarchy.Nodes) == capture.StructureHash(fresh.Nodes) {
		t.Fatal("the tap did not change the screen; the test proves nothing")
	}
}

// A capture that arrives while the warm dump of the same still screen is under way
// waits for it instead of dumping the screen a second time: one dump per screen change.
func TestCaptureJoinsTheWarmDumpUnderWay(t *testing.T) {
	s, dev, client := warmService(t, 1) // uiautomator takes ~800 ms, as on a phone
	eventually.True(t, 20*time.Second, "a warm dump to start on a still screen", func() bool {
		s.warm.mu.Lock()
		defer s.warm.mu.Unlock()
		return s.warm.flight != nil
	})
	snap, err := s.Capturer.Capture(context.Background(), dev.Serial())
	if err != nil {
		t.Fatal(err)
	}
	if !snap.TreeWarm || len(snap.Nodes) == 0 {
		t.Fatalf("capture during the warm dump: warm=%v, %d nodes (%v)", snap.TreeWarm, len(snap.Nodes), snap.TreeErr)
	}
	// The phone's own count: each uiautomator run logs its runtime's start.
	res, err := client.Device(dev.Serial()).Shell(context.Background(), "logcat -d -s AndroidRuntime")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(res.Stdout), "com.android.commands.uiautomator.Launcher"); n != 1 {
		t.Errorf("the phone dumped its tree %d times for one still screen, want 1", n)
	}
}

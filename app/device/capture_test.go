package device

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"fixthis/adb/adbtest"
	"fixthis/capture"
	"fixthis/sim"
)

// capturerOn is a simulated phone made with o and a Capturer on it, closed when
// the test ends.
func capturerOn(t *testing.T, o sim.Options) (adbtest.Phone, *Capturer) {
	t.Helper()
	p := adbtest.StartPhone(t, o)
	c := NewCapturer(p.Client)
	t.Cleanup(func() { c.Close(context.Background()) })
	return p, c
}

// A capture with no earlier state check (`fixthis capture`) reads the screen state
// once: the read that finds the app's sidekick serves the capture too.
func TestCaptureReadsTheScreenStateOnce(t *testing.T) {
	var reads atomic.Int32
	logf := func(format string, args ...any) {
		if line := fmt.Sprintf(format, args...); strings.Contains(line, "dumpsys activity activities") && strings.Contains(line, " done in ") {
			reads.Add(1)
		}
	}
	p, c := capturerOn(t, sim.Options{Scenario: "demo", LatencyScale: 0, Logf: logf})
	snap, err := c.Capture(context.Background(), p.Serial())
	if err != nil {
		t.Fatal(err)
	}
	if snap.State.Package == "" || len(snap.Nodes) == 0 {
		t.Fatalf("capture without state or tree: %+v", snap.State)
	}
	if n := reads.Load(); n != 1 {
		t.Errorf("the screen state was read %d times", n)
	}
}

// Against the demo app's sidekick: the tree comes from it, the app shows the host
// connected, and the connection is kept across captures; with a dialog up (which the
// sidekick cannot see) the capture dumps with uiautomator and still keeps it.
func TestCaptureThroughTheSidekick(t *testing.T) {
	p, c := capturerOn(t, sim.Options{Scenario: "demo", LatencyScale: 0})
	srv, dev := p.Server, p.Device
	ctx := context.Background()
	for i := range 2 {
		snap, err := c.Capture(ctx, dev.Serial())
		if err != nil {
			t.Fatal(err)
		}
		if snap.TreeSource != capture.TreeFromSidekick || snap.SidekickErr != nil || len(snap.Nodes) < 10 {
			t.Fatalf("capture %d: source %q (%v), %d nodes", i, snap.TreeSource, snap.SidekickErr, len(snap.Nodes))
		}
		for _, n := range snap.Nodes {
			if !n.Compose || n.Bounds.Empty() || n.Package != dev.Profile().App.Package {
				t.Fatalf("node %+v", n)
			}
		}
	}
	if !dev.SidekickConnected() {
		t.Error("the app does not show FixThis connected")
	}
	srv.MustADB(t, "-s", dev.Serial(), "shell", "am", "broadcast", "-a", "com.fixthis.demo.SHOW_SCENARIO", "--es", "scenario", "dialog")
	snap, err := c.Capture(ctx, dev.Serial())
	if err != nil {
		t.Fatal(err)
	}
	if snap.TreeSource != capture.TreeFromUIAutomator || !errors.Is(snap.SidekickErr, capture.ErrSidekickTreeUnused) {
		t.Fatalf("with a dialog: source %q (%v)", snap.TreeSource, snap.SidekickErr)
	}
	if !c.sidekicks.known(dev.Serial()) {
		t.Error("a sidekick that answered was dropped")
	}
}

// The app's sidekick found its socket name held by a dead process, bound the "-1"
// name and wrote that name into session.json, as upstream does: FixThis dials the
// session's name, and only that one.
func TestCaptureUsesTheSessionsRetriedSocket(t *testing.T) {
	p, c := capturerOn(t, sim.Options{Scenario: "demo", LatencyScale: 0, SidekickSocketTaken: true})
	dev, client := p.Device, p.Client
	snap, err := c.Capture(context.Background(), dev.Serial())
	if err != nil {
		t.Fatal(err)
	}
	if snap.TreeSource != capture.TreeFromSidekick {
		t.Fatalf("source %q (%v), want the sidekick on its -1 socket", snap.TreeSource, snap.SidekickErr)
	}
	var remotes []string
	for _, f := range client.OwnForwards(dev.Serial()) {
		remotes = append(remotes, f.Remote)
	}
	sort.Strings(remotes)
	if want := "localabstract:fixthis_" + dev.Profile().App.Package + "-1"; strings.Join(remotes, " ") != want {
		t.Errorf("forwards to %v, want only the session's %s", remotes, want)
	}
}

// The app restarts: its kept connection dies with the old process and the new one
// has a new token, so the first call is UNAUTHORIZED; FixThis re-reads session.json
// once and carries on with the sidekick.
func TestCaptureFollowsTheSidekickThroughAnAppRestart(t *testing.T) {
	p, c := capturerOn(t, sim.Options{Scenario: "demo", LatencyScale: 0})
	srv, dev := p.Server, p.Device
	ctx := context.Background()
	pkg := dev.Profile().App.Package
	session := func() string {
		return srv.MustADB(t, "-s", dev.Serial(), "shell", "run-as", pkg, "cat", "files/fixthis/session.json")
	}
	before := session()
	if snap, err := c.Capture(ctx, dev.Serial()); err != nil || snap.TreeSource != capture.TreeFromSidekick {
		t.Fatalf("first capture: %v", err)
	}
	srv.MustADB(t, "-s", dev.Serial(), "shell", "am", "force-stop", pkg)
	srv.MustADB(t, "-s", dev.Serial(), "shell", "am", "start", "-W", "-n", pkg+"/.MainActivity")
	snap, err := c.Capture(ctx, dev.Serial())
	if err != nil {
		t.Fatal(err)
	}
	if snap.TreeSource != capture.TreeFromSidekick {
		t.Fatalf("after the restart: source %q (%v)", snap.TreeSource, snap.SidekickErr)
	}
	if after := session(); after == before {
		t.Error("the restarted app kept its session token")
	}
}

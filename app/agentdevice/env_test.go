package agentdevice

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"fixthis/adb"
	"fixthis/adb/adbtest"
	"fixthis/app/device"
	"fixthis/app/display"
	"fixthis/app/store"
	"fixthis/sim"
)

// simEnv is what a Phone drives in tests: the demo sim on a private adb server, a
// store and a capturer, all closed when the test ends.
type simEnv struct {
	client   *adb.Client
	dev      *sim.Device
	st       *store.Store
	capturer *device.Capturer
}

func newSimEnv(t *testing.T) simEnv {
	t.Helper()
	return newSimEnvWith(t, sim.Options{Scenario: "demo", LatencyScale: 0, Logf: adbtest.Quiet})
}

// newSimEnvWith is newSimEnv on a phone with its own options (a benchmark's link
// model and latency).
func newSimEnvWith(t testing.TB, o sim.Options) simEnv {
	t.Helper()
	p := adbtest.StartPhone(t, o)
	st, err := store.Open(context.Background(), t.TempDir(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	capturer := device.NewCapturer(p.Client)
	t.Cleanup(func() { capturer.Close(context.Background()) })
	return simEnv{client: p.Client, dev: p.Device, st: st, capturer: capturer}
}

// options are the Options of a Phone on e: its adb server, capturer and store, a
// short wait for the console's answer, and every call on e's phone.
func (e simEnv) options() Options {
	serial := e.dev.Serial()
	return Options{ADB: e.client, Capturer: e.capturer, Store: e.st, AskTimeout: 300 * time.Millisecond,
		Pick: func(context.Context, string) (Target, error) { return Target{Serial: serial}, nil }}
}

// allowControl lets agents drive e's phone, as the console's Allow does.
func (e simEnv) allowControl(t testing.TB) {
	t.Helper()
	if err := SetControl(context.Background(), e.st, e.dev.Serial(), true); err != nil {
		t.Fatal(err)
	}
}

// openDisplay is a display manager keeping its originals in a temp file.
func openDisplay(t testing.TB) *display.Manager {
	t.Helper()
	m, err := display.Open(filepath.Join(t.TempDir(), "display-originals.json"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// displayPhone is a Phone on e with display settings kept in a temp file, the
// demo app as the display target, and every call on e's phone.
func (e simEnv) displayPhone(t testing.TB) (*Phone, *display.Manager) {
	t.Helper()
	serial := e.dev.Serial()
	o := e.options()
	o.Display = openDisplay(t)
	o.DisplayTarget = func(context.Context, string) (display.Target, error) {
		return display.Target{Shell: e.client.Device(serial), Serial: serial, Package: "com.fixthis.demo"}, nil
	}
	return New(o), o.Display
}

// displayActivity is the activity list's display entries, oldest first, as
// "outcome: detail".
func (e simEnv) displayActivity(t testing.TB) []string {
	t.Helper()
	acts, err := e.st.DeviceActions(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range acts {
		if a.Action == "display" {
			got = append(got, a.Outcome+": "+a.Detail)
		}
	}
	return got
}

package agentdevice

import (
	"context"
	"testing"

	"fixthis/adb"
	"fixthis/adb/adbtest"
	"fixthis/app/device"
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

package app

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"fixthis/adb/adbtest"
	"fixthis/app/device"
	"fixthis/app/store"
	"fixthis/internal/eventually"
)

// A killed adb server is reported, started again, and the demo device registers itself
// again, so the console comes back without the user doing anything.
func TestKilledADBServerRecoversWithDemoDevice(t *testing.T) {
	srvADB := adbtest.StartServer(t)
	client := srvADB.Client(t)
	st, err := store.Open(context.Background(), t.TempDir(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	a := New(Options{Version: "test", Mode: ModeServe, Logger: slog.New(slog.NewTextHandler(logs, nil)), ADB: client, Store: st, Demo: device.DemoOn})
	ctx, cancel := context.WithCancel(context.Background())
	a.Run(ctx)
	t.Cleanup(func() { a.Shutdown(); cancel(); a.Wait(); st.Close() })

	demo := waitPayload(t, a, 15*time.Second, "the demo device online", func(p device.List) bool {
		for _, d := range p.Devices {
			if d.IsDemo && d.Online() && p.SelectedSerial == d.Serial {
				return true
			}
		}
		return false
	})
	serial := demo.SelectedSerial

	srvADB.Kill(t)
	waitPayload(t, a, 5*time.Second, "the server reported down", func(p device.List) bool { return !p.ServerUp && p.ServerError != "" })
	start := time.Now()
	waitPayload(t, a, 15*time.Second, "the demo device back after the restart", func(p device.List) bool {
		return p.ServerUp && p.Has(serial) && a.device.Registry.IsOnline(serial)
	})
	t.Logf("server restarted and demo re-registered %v after the outage was seen", time.Since(start).Round(time.Millisecond))
	// The outage and the restart are in the log.
	for _, want := range []string{"adb server went away", "adb server restarted"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, logs.String())
		}
	}
	// The restarted server is ours to clean: adbtest's cleanup kills it by port.
}

func waitPayload(t *testing.T, a *App, timeout time.Duration, what string, ok func(device.List) bool) device.List {
	t.Helper()
	return eventually.Get(t, timeout, what, a.device.Registry.List, ok, func(l device.List) string { return fmt.Sprintf("devices %+v", l) })
}

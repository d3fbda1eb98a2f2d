package device

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"fixthis/adb"
	"fixthis/adb/adbtest"
	"fixthis/app/events"
	"fixthis/internal/eventually"
	"fixthis/sim"
)

func TestIsNetworkSerial(t *testing.T) {
	for s, want := range map[string]bool{
		"192.168.1.23:5555":  true,
		"127.0.0.1:44621":    true,
		"[fe80::1%wlan0]:37": false, // zones are not in adb's serials
		"[2001:db8::5]:5555": true,
		"pixel.lan:40123":    true,
		"adb-28291FDH2003YQ-vWgJpq._adb-tls-connect._tcp":  true,
		"adb-28291FDH2003YQ-vWgJpq._adb-tls-connect._tcp.": true,
		"emulator-5554":       false,
		"28291FDH2003YQ":      false,
		"usb:1-1":             false,
		"host:5555; rm -rf /": false,
	} {
		if got := IsNetworkSerial(s); got != want {
			t.Errorf("IsNetworkSerial(%q) = %v, want %v", s, got, want)
		}
	}
}

// After the adb server dies, the network phone that is still alive comes back
// and the dead one is given up on after its attempts: it says so, and the
// selection it held moves to the phone that came back.
func TestReconnectGivesUpOnADeadPhone(t *testing.T) {
	saved := reconnectBackoff
	reconnectBackoff = []time.Duration{0, 50 * time.Millisecond, 100 * time.Millisecond}
	t.Cleanup(func() { reconnectBackoff = saved })

	srv := adbtest.StartServer(t)
	opts := sim.Options{Scenario: "demo", LatencyScale: 0, Logf: func(string, ...any) {}}
	alive, dead := srv.ConnectSim(t, opts), srv.ConnectSim(t, opts)
	client, err := adb.NewClient(adb.Options{Port: srv.Port})
	if err != nil {
		t.Fatal(err)
	}
	reg := NewRegistry(client, events.NewBus(64))
	reg.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); reg.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })

	waitList(t, reg, "both phones online", func(l List) bool {
		return reg.IsOnline(alive.Serial()) && reg.IsOnline(dead.Serial())
	})
	if _, err := reg.Select(dead.Serial()); err != nil {
		t.Fatal(err)
	}
	dead.Close()
	srv.Kill(t)
	l := waitList(t, reg, "the dead phone given up on", func(l List) bool {
		for _, r := range l.Reconnects {
			if r.Serial == dead.Serial() && r.State == ReconnectFailed {
				return true
			}
		}
		return false
	})
	if r := l.Reconnects[0]; r.Attempts != len(reconnectBackoff) || r.Error == "" {
		t.Errorf("reconnect %+v", r)
	}
	if !strings.Contains(strings.Join(l.Notices, " "), dead.Serial()+" did not come back after 3 attempts") {
		t.Errorf("notices %q", l.Notices)
	}
	waitList(t, reg, "the live phone back and selected", func(l List) bool {
		return reg.IsOnline(alive.Serial()) && l.SelectedSerial == alive.Serial()
	})
}

func waitList(t *testing.T, reg *Registry, what string, ok func(List) bool) List {
	t.Helper()
	return eventually.Get(t, 20*time.Second, what, reg.List, ok, func(l List) string { return fmt.Sprintf("%+v", l) })
}

package adbtest_test

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"fixthis/adb/adbtest"
	"fixthis/internal/eventually"
	"fixthis/sim"
)

func TestServerLifecycle(t *testing.T) {
	srv := adbtest.StartServer(t)
	dev := srv.ConnectSim(t, sim.Options{Scenario: "demo"})
	if got := srv.State(t, dev.Serial()); got != "device" {
		t.Fatalf("state after ConnectSim = %q, want device", got)
	}

	srv.Restart(t)
	if got := srv.State(t, dev.Serial()); got != "" {
		t.Fatalf("state after restart = %q, want the device forgotten", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := dev.Connect(ctx, srv.Port); err != nil {
		t.Fatalf("reconnect after restart: %v", err)
	}

	// A closed sim drops its connection: the server must stop listing it as usable.
	dev.Close()
	eventually.True(t, 10*time.Second, "the closed sim no longer listed as device", func() bool {
		return srv.State(t, dev.Serial()) != "device"
	})
}

func TestStartPhone(t *testing.T) {
	p := adbtest.StartPhone(t, sim.Options{Scenario: "demo", Logf: adbtest.Quiet})
	if p.Client.Port() != p.Server.Port {
		t.Fatalf("client on port %d, server on %d", p.Client.Port(), p.Server.Port)
	}
	devices, err := p.Client.Devices(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(devices) != 1 || devices[0].Serial != p.Serial() || devices[0].State != "device" {
		t.Fatalf("the client lists %+v, want %s online", devices, p.Serial())
	}
	// Setenv points the adb CLI run without -P at this server.
	p.Server.Setenv(t)
	out, err := exec.Command("adb", "devices").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), p.Serial()+"\tdevice") {
		t.Fatalf("adb devices after Setenv:\n%s", out)
	}
}

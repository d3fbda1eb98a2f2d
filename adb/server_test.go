package adb_test

import (
	"context"
	"errors"
	"net"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"fixthis/adb"
)

// privateServer returns a client for a fresh adb server of its own on a free
// loopback port (never 5037 or 5555-5585), started through EnsureServer and
// killed when the test ends. It skips the test when adb is not installed.
func privateServer(t *testing.T) *adb.Client {
	t.Helper()
	if _, err := exec.LookPath("adb"); err != nil {
		t.Skip("adb not installed (Debian: apt-get install adb); skipping real adb server test")
	}
	c, err := adb.NewClient(adb.Options{Port: freePort(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { killServer(c) })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := c.EnsureServer(ctx); err != nil {
		t.Fatalf("start private adb server: %v", err)
	}
	return c
}

func freePort(t *testing.T) int {
	t.Helper()
	for {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		if port != 5037 && (port < 5555 || port > 5585) {
			return port
		}
	}
}

func killServer(c *adb.Client) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = exec.CommandContext(ctx, "adb", "-P", strconv.Itoa(c.Port()), "kill-server").Run()
	// kill-server returns before the port is released; wait until it is.
	for ctx.Err() == nil {
		if _, err := c.ServerVersion(ctx); errors.Is(err, adb.ErrServerUnavailable) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestRealServerEmpty(t *testing.T) {
	c := privateServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	if v, err := c.ServerVersion(ctx); err != nil || v < 32 {
		t.Errorf("server version %d, %v", v, err)
	}
	if err := c.EnsureServer(ctx); err != nil {
		t.Errorf("EnsureServer on a running server: %v", err)
	}
	devs, err := c.Devices(ctx)
	if err != nil || len(devs) != 0 {
		t.Errorf("devices %+v, %v", devs, err)
	}
	fw, err := c.ListForwards(ctx)
	if err != nil || len(fw) != 0 {
		t.Errorf("forwards %+v, %v", fw, err)
	}

	tctx, tcancel := context.WithCancel(ctx)
	var got []adb.Device
	calls := 0
	err = c.Track(tctx, func(d []adb.Device) { got, calls = d, calls+1; tcancel() })
	if !errors.Is(err, context.Canceled) || calls != 1 || len(got) != 0 {
		t.Errorf("track: %d calls, %+v, err %v", calls, got, err)
	}

	_, err = c.Shell(ctx, "nosuchdevice", "true")
	if !errors.Is(err, adb.ErrDeviceNotFound) {
		t.Errorf("shell on unknown serial: %v, want ErrDeviceNotFound", err)
	}
	_, err = c.Describe(ctx, "nosuchdevice")
	if !errors.Is(err, adb.ErrDeviceNotFound) {
		t.Errorf("describe unknown serial: %v, want ErrDeviceNotFound", err)
	}
	if err := c.Connect(ctx, "127.0.0.1:1"); err == nil {
		t.Error("connect to a closed port succeeded")
	}
}

// A killed adb server is reported as down by Watch and as
// ErrServerUnavailable by calls; when it comes back, Watch reports it up.
func TestRealServerKilledAndRecovered(t *testing.T) {
	c := privateServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	events := make(chan adb.WatchEvent, 64)
	go c.Watch(ctx, func(e adb.WatchEvent) { events <- e })
	next := func(want bool) adb.WatchEvent {
		t.Helper()
		for {
			select {
			case e := <-events:
				if e.ServerUp == want {
					return e
				}
			case <-ctx.Done():
				t.Fatalf("no event with ServerUp=%v", want)
			}
		}
	}
	next(true)

	killServer(c)
	down := next(false)
	if !errors.Is(down.Err, adb.ErrServerUnavailable) {
		t.Errorf("down event error %v, want ErrServerUnavailable", down.Err)
	}
	if _, err := c.Devices(ctx); !errors.Is(err, adb.ErrServerUnavailable) {
		t.Errorf("devices on a dead server: %v", err)
	}

	if err := c.EnsureServer(ctx); err != nil {
		t.Fatalf("restart: %v", err)
	}
	up := next(true)
	if len(up.Devices) != 0 {
		t.Errorf("devices after restart %+v", up.Devices)
	}
}

// Callers that find no server at once (the device tracker and the demo device start
// together) all get a running server: none fails because another won the port.
func TestEnsureServerConcurrently(t *testing.T) {
	if _, err := exec.LookPath("adb"); err != nil {
		t.Skip("adb not installed")
	}
	c, err := adb.NewClient(adb.Options{Port: freePort(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { killServer(c) })
	errs := make(chan error, 4)
	for i := 0; i < 4; i++ {
		go func() { errs <- c.EnsureServer(context.Background()) }()
	}
	for i := 0; i < 4; i++ {
		if err := <-errs; err != nil {
			t.Fatalf("caller %d: %v", i, err)
		}
	}
}

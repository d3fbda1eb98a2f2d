// Package adbtest runs a private adb server for tests, so they never touch the
// user's server on 5037, and registers simulated devices with it. StartPhone is the
// whole setup of a test that drives a device: the server, one simulated device and a
// client.
package adbtest

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"fixthis/adb"
	"fixthis/sim"
)

// Server is a private adb server on a free loopback port.
type Server struct {
	Port int
	bin  string
}

// Result is one adb CLI run.
type Result struct {
	Stdout, Stderr []byte
	ExitCode       int
}

// StartServer starts `adb -P PORT start-server` on a free port and kills it when the
// test ends. It skips the test when adb is not installed.
func StartServer(t testing.TB) *Server {
	t.Helper()
	bin, err := exec.LookPath("adb")
	if err != nil {
		t.Skip("adb is not installed (Debian/Ubuntu: apt-get install adb); skipping test that needs a real adb server")
	}
	s := &Server{Port: freePort(t), bin: bin}
	s.start(t)
	t.Cleanup(func() { s.kill() })
	return s
}

// Adopt takes over the adb server another process started on port, one that cannot
// end it itself (a child the test kills with SIGKILL skips its cleanups), and kills
// it when the test ends. It skips the test when adb is not installed.
func Adopt(t testing.TB, port int) *Server {
	t.Helper()
	bin, err := exec.LookPath("adb")
	if err != nil {
		t.Skip("adb is not installed (Debian/Ubuntu: apt-get install adb); skipping test that needs a real adb server")
	}
	s := &Server{Port: port, bin: bin}
	t.Cleanup(func() { s.kill() })
	return s
}

// Phone is what a test that drives a simulated device through adb needs: a private
// adb server, one simulated device connected to it, and a client of that server.
type Phone struct {
	Server *Server
	Device *sim.Device
	Client *adb.Client
}

// StartPhone starts a private adb server, connects a simulated device made with opts
// (ConnectSim: logging to the test unless opts.Logf says otherwise) and makes a client
// of that server. All of it ends with the test; without adb the test is skipped.
func StartPhone(t testing.TB, opts sim.Options) Phone {
	t.Helper()
	srv := StartServer(t)
	dev := srv.ConnectSim(t, opts)
	return Phone{Server: srv, Device: dev, Client: srv.Client(t)}
}

// Serial is the simulated device's serial.
func (p Phone) Serial() string { return p.Device.Serial() }

// Quiet is a sim.Options Logf that drops the device's log, for tests that run many
// commands and read none of it.
func Quiet(string, ...any) {}

// Client returns a client of this server.
func (s *Server) Client(t testing.TB) *adb.Client {
	t.Helper()
	c, err := adb.NewClient(adb.Options{Port: s.Port})
	if err != nil {
		t.Fatalf("adb client for port %d: %v", s.Port, err)
	}
	return c
}

// Setenv points what the test runs without a port (the adb CLI, code that makes its
// own client from ANDROID_ADB_SERVER_PORT) at this server until the test ends.
func (s *Server) Setenv(t testing.TB) {
	t.Helper()
	t.Setenv("ANDROID_ADB_SERVER_PORT", strconv.Itoa(s.Port))
}

// freePort picks a loopback port outside the ranges adb itself uses (5037 and the
// emulator ports 5554-5585).
func freePort(t testing.TB) int {
	t.Helper()
	for range 20 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatalf("find a free port: %v", err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		if port != 5037 && (port < 5554 || port > 5585) {
			return port
		}
	}
	t.Fatal("no free port outside adb's ranges")
	return 0
}

func (s *Server) start(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if r := s.run(ctx, "start-server"); r.ExitCode != 0 {
		t.Fatalf("adb -P %d start-server: exit %d: %s", s.Port, r.ExitCode, r.Stderr)
	}
}

func (s *Server) kill() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s.run(ctx, "kill-server")
}

// Kill stops the server, as a user running `adb kill-server` would.
func (s *Server) Kill(t testing.TB) {
	t.Helper()
	s.kill()
	// kill-server returns before the port is released.
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(s.Port), 200*time.Millisecond)
		if err != nil {
			return
		}
		c.Close()
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("adb server on port %d still answers after kill-server", s.Port)
}

// Restart kills the server and starts it again on the same port. Devices added with
// `adb connect` are forgotten, as with a real restart.
func (s *Server) Restart(t testing.TB) {
	t.Helper()
	s.Kill(t)
	s.start(t)
}

func (s *Server) run(ctx context.Context, args ...string) Result {
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, s.bin, append([]string{"-P", strconv.Itoa(s.Port)}, args...)...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := Result{Stdout: out.Bytes(), Stderr: errb.Bytes()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.ExitCode = ee.ExitCode()
	case err != nil:
		r.ExitCode = -1
		r.Stderr = append(r.Stderr, []byte(err.Error())...)
	}
	return r
}

// ADB runs the adb CLI against this server (with a 60 s limit) and returns what it
// printed and its exit code; a non-zero exit is the caller's to judge.
func (s *Server) ADB(t testing.TB, args ...string) Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	r := s.run(ctx, args...)
	if ctx.Err() != nil {
		t.Fatalf("adb %s: timed out; stderr: %s", strings.Join(args, " "), r.Stderr)
	}
	return r
}

// MustADB is ADB that fails the test on a non-zero exit and returns stdout.
func (s *Server) MustADB(t testing.TB, args ...string) string {
	t.Helper()
	r := s.ADB(t, args...)
	if r.ExitCode != 0 {
		t.Fatalf("adb %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.ExitCode, r.Stdout, r.Stderr)
	}
	return string(r.Stdout)
}

// ConnectSim starts a simulated device and waits until this server lists it as
// "device". The device is disconnected and closed when the test ends.
func (s *Server) ConnectSim(t testing.TB, opts sim.Options) *sim.Device {
	t.Helper()
	if opts.Logf == nil {
		opts.Logf = t.Logf
	}
	ctx, cancel := context.WithCancel(context.Background())
	d, err := sim.Start(ctx, opts)
	if err != nil {
		cancel()
		t.Fatalf("start simulated device: %v", err)
	}
	t.Cleanup(func() {
		dctx, dcancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = d.Disconnect(dctx, s.Port)
		dcancel()
		cancel()
		d.Close()
	})
	cctx, ccancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer ccancel()
	if err := d.Connect(cctx, s.Port); err != nil {
		t.Fatalf("connect %s to adb server %d: %v", d.Serial(), s.Port, err)
	}
	return d
}

// State returns serial's state in `adb devices` ("" when not listed).
func (s *Server) State(t testing.TB, serial string) string {
	t.Helper()
	out := s.MustADB(t, "devices")
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == serial {
			return f[1]
		}
	}
	return ""
}

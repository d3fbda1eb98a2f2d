package adb

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

func TestEncodeRequest(t *testing.T) {
	got, err := encodeRequest("host:version")
	if err != nil || string(got) != "000chost:version" {
		t.Errorf("got %q, %v", got, err)
	}
	if _, err := encodeRequest(""); err == nil {
		t.Error("empty request: no error")
	}
	if _, err := encodeRequest(strings.Repeat("x", 0x10000)); err == nil {
		t.Error("oversized request: no error")
	}
}

func TestReadStatus(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		wantErr string // "" for OKAY
		fail    bool
	}{
		{"okay", "OKAY", "", false},
		{"fail", "FAIL001bdevice 'nonexist' not found", "device 'nonexist' not found", true},
		{"fail uppercase hex", "FAIL000Aoffline!!!!", "offline!!!!"[:10], true},
		{"garbage", "HELO", "unexpected status", false},
		{"short", "OK", "read status", false},
		{"fail cut", "FAIL0010short", "read FAIL message", false},
		{"fail bad length", "FAILzzzz", "bad adb length", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := readStatus(strings.NewReader(tt.in), "svc")
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("err %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err %v, want containing %q", err, tt.wantErr)
			}
			var fe *FailError
			if errors.As(err, &fe) != tt.fail {
				t.Errorf("FailError = %v, want %v", !tt.fail, tt.fail)
			}
		})
	}
	err := readStatus(strings.NewReader("FAIL001bdevice 'nonexist' not found"), "host:transport:nonexist")
	if !errors.Is(err, ErrDeviceNotFound) {
		t.Errorf("device not found FAIL does not match ErrDeviceNotFound: %v", err)
	}
}

func TestPortFromEnv(t *testing.T) {
	for in, want := range map[string]int{"": DefaultPort, " 5038 ": 5038, "41000": 41000} {
		if got, err := portFromEnv(in); err != nil || got != want {
			t.Errorf("portFromEnv(%q) = %d, %v", in, got, err)
		}
	}
	for _, bad := range []string{"abc", "0", "70000", "-1"} {
		if _, err := portFromEnv(bad); err == nil {
			t.Errorf("portFromEnv(%q): no error", bad)
		}
	}
}

func TestNewClientUsesEnvPort(t *testing.T) {
	t.Setenv("ANDROID_ADB_SERVER_PORT", "41999")
	c, err := NewClient(Options{})
	if err != nil || c.Addr() != "127.0.0.1:41999" {
		t.Fatalf("addr %v, %v", c, err)
	}
	c, err = NewClient(Options{Host: "localhost", Port: 6000})
	if err != nil || c.Addr() != "localhost:6000" {
		t.Fatalf("explicit options ignored: %v, %v", c, err)
	}
	t.Setenv("ANDROID_ADB_SERVER_PORT", "nope")
	if _, err := NewClient(Options{}); err == nil {
		t.Error("bad ANDROID_ADB_SERVER_PORT accepted")
	}
}

// FuzzReadReply feeds arbitrary server replies through the host-protocol
// reader the way Track consumes them: a status, then length-prefixed blocks
// parsed as device lists. It must never panic or allocate beyond 64 KiB.
func FuzzReadReply(f *testing.F) {
	f.Add([]byte("OKAY0000"))
	f.Add([]byte("OKAY00040029"))
	f.Add([]byte("FAIL001bdevice 'nonexist' not found"))
	f.Add([]byte("OKAY0049emulator-5554          device product:sdk model:sdk device:emu transport_id:1\n0000"))
	f.Add([]byte("OKAY001c127.0.0.1:40215\tdevice\r\n"))
	f.Add([]byte("OKAYffff"))
	f.Add([]byte("OKAY00zz"))
	f.Add([]byte("FAIL"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bufio.NewReader(bytes.NewReader(data))
		if err := readStatus(r, "fuzz"); err != nil {
			return
		}
		for range 64 {
			b, err := readHexPrefixed(r)
			if err != nil {
				return
			}
			if len(b) > 0xffff {
				t.Fatalf("block of %d bytes", len(b))
			}
			for _, d := range parseDevices(string(b)) {
				if d.Serial == "" || strings.ContainsAny(d.Serial, " \t\r\n") {
					t.Fatalf("bad serial %q from %q", d.Serial, b)
				}
			}
		}
	})
}

// fakeServer is a stand-in adb server on a loopback port that hands each
// accepted connection and its first request to handle.
func fakeServer(t testing.TB, handle func(c net.Conn, req string)) *Client {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				n, err := readHexLength(c)
				if err != nil {
					return
				}
				req := make([]byte, n)
				if _, err := io.ReadFull(c, req); err != nil {
					return
				}
				handle(c, string(req))
			}()
		}
	}()
	cl, err := NewClient(Options{Port: l.Addr().(*net.TCPAddr).Port})
	if err != nil {
		t.Fatal(err)
	}
	return cl
}

func hexBlock(s string) string { return fmt.Sprintf("%04x%s", len(s), s) }

func TestTrackEndsWithServerUnavailable(t *testing.T) {
	cl := fakeServer(t, func(c net.Conn, req string) {
		if req != "host:track-devices-l" {
			io.WriteString(c, "FAIL0004nope")
			return
		}
		io.WriteString(c, "OKAY"+hexBlock("")+hexBlock("127.0.0.1:40001 device transport_id:1\n"))
		// The server dies: the connection closes.
	})
	var lists [][]Device
	err := cl.Track(context.Background(), func(d []Device) { lists = append(lists, d) })
	if !errors.Is(err, ErrServerUnavailable) {
		t.Fatalf("err %v, want ErrServerUnavailable", err)
	}
	if len(lists) != 2 || len(lists[0]) != 0 || len(lists[1]) != 1 || lists[1][0].Serial != "127.0.0.1:40001" {
		t.Errorf("lists %+v", lists)
	}
}

func TestTrackFallsBackToShortForm(t *testing.T) {
	cl := fakeServer(t, func(c net.Conn, req string) {
		if req == "host:track-devices-l" {
			io.WriteString(c, "FAIL"+hexBlock("unknown host service"))
			return
		}
		io.WriteString(c, "OKAY"+hexBlock("abc\tdevice\n"))
	})
	var got []Device
	err := cl.Track(context.Background(), func(d []Device) { got = d })
	if !errors.Is(err, ErrServerUnavailable) || len(got) != 1 || got[0].Serial != "abc" {
		t.Fatalf("got %+v, err %v", got, err)
	}
}

// A device that never answers must not hold a call past its context.
func TestCallsHonourContext(t *testing.T) {
	cl := fakeServer(t, func(c net.Conn, req string) {
		io.WriteString(c, "OKAY") // transport accepted; then silence
		io.Copy(io.Discard, c)
	})
	calls := map[string]func(ctx context.Context) error{
		"Exec":  func(ctx context.Context) error { _, err := cl.Exec(ctx, "s", "screencap"); return err },
		"Track": func(ctx context.Context) error { return cl.Track(ctx, func([]Device) {}) },
		"Pull":  func(ctx context.Context) error { return cl.Pull(ctx, "s", "/x", io.Discard) },
		"Devices": func(ctx context.Context) error {
			_, err := cl.Devices(ctx)
			return err
		},
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
			defer cancel()
			start := time.Now()
			err := call(ctx)
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("err %v, want deadline exceeded", err)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("returned after %v", d)
			}
		})
	}
	t.Run("cancel", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(50*time.Millisecond, cancel)
		if _, err := cl.Exec(ctx, "s", "sleep 100"); !errors.Is(err, context.Canceled) {
			t.Errorf("err %v, want canceled", err)
		}
	})
}

func TestDeadServerIsUnavailable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cl, _ := NewClient(Options{Port: port})
	if _, err := cl.Devices(context.Background()); !errors.Is(err, ErrServerUnavailable) {
		t.Errorf("Devices: %v, want ErrServerUnavailable", err)
	}
	if _, err := cl.Shell(context.Background(), "x", "true"); !errors.Is(err, ErrServerUnavailable) {
		t.Errorf("Shell: %v, want ErrServerUnavailable", err)
	}
}

func TestEnsureServerWithoutADB(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cl, _ := NewClient(Options{Port: port, ADBPath: "/nonexistent/adb"})
	err = cl.EnsureServer(context.Background())
	if !errors.Is(err, ErrADBMissing) || !strings.Contains(err.Error(), "apt-get install adb") {
		t.Errorf("err %v, want ErrADBMissing naming the package", err)
	}
}

// BenchmarkTrackUpdate measures one device-list update through Track: read
// the length-prefixed block from the socket and parse a five-device list.
func BenchmarkTrackUpdate(b *testing.B) {
	list := readTestdata(b, "devices_l.txt")
	update := []byte(hexBlock(list))
	n := b.N
	cl := fakeServer(b, func(c net.Conn, req string) {
		w := bufio.NewWriter(c)
		w.WriteString("OKAY")
		for range n {
			w.Write(update)
		}
		w.Flush()
	})
	b.ReportAllocs()
	b.ResetTimer()
	seen := 0
	cl.Track(context.Background(), func(d []Device) { seen++ })
	if seen != n {
		b.Fatalf("saw %d updates, want %d", seen, n)
	}
}

func BenchmarkParseDevices(b *testing.B) {
	list := readTestdata(b, "devices_l.txt")
	b.ReportAllocs()
	for b.Loop() {
		parseDevices(list)
	}
}

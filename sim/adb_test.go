// The whole device through a real adb server: shell, exec, screencap, push and
// pull, forwards, uiautomator with taps, reverse forwards and refused services.
package sim_test

import (
	"bytes"
	"image/png"
	"io"
	"math/rand"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fixthis/adb/adbtest"
	"fixthis/sim"
)

func testOptions() sim.Options {
	return sim.Options{Phone: newTestPhone(360, 800), Profile: testProfile()}
}

func TestADBShell(t *testing.T) {
	srv := adbtest.StartServer(t)
	dev := srv.ConnectSim(t, testOptions())
	s := dev.Serial()
	tests := []struct {
		name     string
		args     []string
		stdout   string
		stderr   string
		exitCode int
	}{
		{"getprop", []string{"shell", "getprop", "ro.product.model"}, "Sim Phone\n", "", 0},
		{"false exits 1", []string{"shell", "false"}, "", "", 1},
		{"exit code", []string{"shell", "exit 42"}, "", "", 42},
		{"and-or", []string{"shell", "false && echo no || echo yes; echo done"}, "yes\ndone\n", "", 0},
		{"quoting", []string{"shell", "echo", "'a  b'", `"c\"d"`}, "a  b c\"d\n", "", 0},
		{"unknown", []string{"shell", "frobnicate"}, "", "/system/bin/sh: frobnicate: inaccessible or not found\n", 127},
		{"stderr to null", []string{"shell", "cat /nope 2>/dev/null; echo $?"}, "1\n", "", 0},
		{"pipe grep", []string{"shell", "dumpsys window | grep mCurrentFocus"}, "  mCurrentFocus=Window{b3f29a4 u0 com.example.sim/com.example.sim.MainActivity}\n", "", 0},
		{"displays focus", []string{"shell", "dumpsys window displays | grep -E 'mCurrentFocus|mFocusedApp'"},
			"  mCurrentFocus=Window{b3f29a4 u0 com.example.sim/com.example.sim.MainActivity}\n  mFocusedApp=ActivityRecord{4a1c2e7 u0 com.example.sim/.MainActivity t31}\n", "", 0},
		{"wm size", []string{"shell", "wm", "size"}, "Physical size: 360x800\n", "", 0},
		{"exec-out", []string{"exec-out", "echo", "hi"}, "hi\n", "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := srv.ADB(t, append([]string{"-s", s}, tc.args...)...)
			if string(r.Stdout) != tc.stdout || string(r.Stderr) != tc.stderr || r.ExitCode != tc.exitCode {
				t.Errorf("adb %s:\n got stdout %q stderr %q exit %d\nwant stdout %q stderr %q exit %d",
					strings.Join(tc.args, " "), r.Stdout, r.Stderr, r.ExitCode, tc.stdout, tc.stderr, tc.exitCode)
			}
		})
	}
}

func TestADBScreencapPNG(t *testing.T) {
	srv := adbtest.StartServer(t)
	dev := srv.ConnectSim(t, testOptions())
	out := srv.MustADB(t, "-s", dev.Serial(), "exec-out", "screencap", "-p")
	img, err := png.Decode(bytes.NewReader([]byte(out)))
	if err != nil {
		t.Fatalf("screencap -p is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 360 || b.Dy() != 800 {
		t.Fatalf("PNG is %v, want 360x800", b)
	}
}

func TestADBPushPullRoundTrip(t *testing.T) {
	srv := adbtest.StartServer(t)
	dev := srv.ConnectSim(t, testOptions())
	dir := t.TempDir()
	src := filepath.Join(dir, "big.bin")
	data := make([]byte, 10<<20)
	rand.New(rand.NewSource(1)).Read(data)
	if err := os.WriteFile(src, data, 0o644); err != nil {
		t.Fatal(err)
	}
	srv.MustADB(t, "-s", dev.Serial(), "push", src, "/data/local/tmp/big.bin")
	if out := srv.MustADB(t, "-s", dev.Serial(), "shell", "ls", "-l", "/data/local/tmp/"); !strings.Contains(out, "10485760") {
		t.Errorf("ls -l after push: %q, want the 10 MiB file", out)
	}
	dst := filepath.Join(dir, "back.bin")
	srv.MustADB(t, "-s", dev.Serial(), "pull", "/data/local/tmp/big.bin", dst)
	got, err := os.ReadFile(dst)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Fatalf("pulled %d bytes differ from the %d pushed", len(got), len(data))
	}
	if r := srv.ADB(t, "-s", dev.Serial(), "pull", "/sdcard/missing.txt", dst); r.ExitCode == 0 {
		t.Errorf("pull of a missing file succeeded")
	}
}

func TestADBForwardLocalAbstract(t *testing.T) {
	srv := adbtest.StartServer(t)
	dev := srv.ConnectSim(t, testOptions())
	port := srv.MustADB(t, "-s", dev.Serial(), "forward", "tcp:0", "localabstract:echo")
	port = strings.TrimSpace(port)
	t.Cleanup(func() { srv.ADB(t, "-s", dev.Serial(), "forward", "--remove", "tcp:"+port) })
	c, err := net.DialTimeout("tcp", "127.0.0.1:"+port, 5*time.Second)
	if err != nil {
		t.Fatalf("dial forward: %v", err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	msg := []byte("hello over adb\n")
	if _, err := c.Write(msg); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, len(msg))
	if _, err := io.ReadFull(c, got); err != nil {
		t.Fatalf("read echo: %v", err)
	}
	if !bytes.Equal(got, msg) {
		t.Fatalf("echo returned %q, want %q", got, msg)
	}
}

func TestADBUIDumpAndTap(t *testing.T) {
	srv := adbtest.StartServer(t)
	dev := srv.ConnectSim(t, testOptions())
	s := dev.Serial()
	out := srv.MustADB(t, "-s", s, "shell", "uiautomator", "dump", "/dev/tty")
	if !strings.HasPrefix(out, "<?xml") || !strings.HasSuffix(out, "UI hierchary dumped to: /dev/tty\n") || !strings.Contains(out, `text="home"`) {
		t.Fatalf("uiautomator dump /dev/tty = %q", out)
	}
	before := srv.MustADB(t, "-s", s, "exec-out", "screencap")
	srv.MustADB(t, "-s", s, "shell", "input", "tap", "100", "100")
	after := srv.MustADB(t, "-s", s, "exec-out", "screencap")
	if len(before) != 16+360*800*4 || len(after) != len(before) {
		t.Fatalf("raw screencap sizes %d and %d, want %d", len(before), len(after), 16+360*800*4)
	}
	if before == after {
		t.Fatal("input tap did not change the screen")
	}
	srv.MustADB(t, "-s", s, "shell", "uiautomator", "dump", "/sdcard/ui.xml")
	if xml := srv.MustADB(t, "-s", s, "shell", "cat", "/sdcard/ui.xml"); !strings.Contains(xml, `text="detail"`) {
		t.Fatalf("dump to file after tap = %q", xml)
	}
}

func TestADBReverseAndRefusedServices(t *testing.T) {
	srv := adbtest.StartServer(t)
	dev := srv.ConnectSim(t, testOptions())
	s := dev.Serial()
	srv.MustADB(t, "-s", s, "reverse", "tcp:8081", "tcp:9091")
	if out := srv.MustADB(t, "-s", s, "reverse", "--list"); !strings.Contains(out, "tcp:8081 tcp:9091") {
		t.Fatalf("reverse --list = %q", out)
	}
	if got := dev.Reverses(); len(got) != 1 || got[0] != "tcp:8081 tcp:9091" {
		t.Fatalf("Reverses() = %v", got)
	}
	srv.MustADB(t, "-s", s, "reverse", "--remove", "tcp:8081")
	if got := dev.Reverses(); len(got) != 0 {
		t.Fatalf("Reverses() after remove = %v", got)
	}
	if r := srv.ADB(t, "-s", s, "reboot"); r.ExitCode == 0 && !strings.Contains(string(r.Stdout)+string(r.Stderr), "not supported") {
		t.Errorf("reboot was not refused: %+v", r)
	}
}

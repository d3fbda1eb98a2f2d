package sim_test

import (
	"bytes"
	"image/png"
	"strings"
	"testing"

	"fixthis/adb/adbtest"
	"fixthis/adb/sim"
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
		{"stderr to null", []string{"shell", "cat /nope 2>/dev/null; echo $?"}, "$?\n", "", 0},
		{"pipe grep", []string{"shell", "dumpsys window | grep mCurrentFocus"}, "  mCurrentFocus=Window{b3f29a4 u0 com.example.sim/com.example.sim.MainActivity}\n", "", 0},
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

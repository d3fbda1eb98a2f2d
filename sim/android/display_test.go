// The display commands through adb, and what dumpsys reports after them.
package android_test

import (
	"image/png"
	"strings"
	"testing"

	"fixthis/adb/adbtest"
	"fixthis/sim"
)

// The display commands answer as Android 14 does and dumpsys reports what they set.
func TestDisplaySettingsCommands(t *testing.T) {
	srv := adbtest.StartServer(t)
	dev := srv.ConnectSim(t, sim.Options{Scenario: "demo", LatencyScale: 0})
	sh := func(args ...string) string {
		return srv.MustADB(t, append([]string{"-s", dev.Serial(), "shell"}, args...)...)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"cmd", "uimode", "night"}, "Night mode: no\n"},
		{[]string{"cmd", "uimode", "night", "yes"}, "Night mode: yes\n"},
		{[]string{"settings", "get", "system", "font_scale"}, "1.0\n"},
		{[]string{"settings", "put", "system", "font_scale", "1.3"}, ""},
		{[]string{"settings", "get", "system", "font_scale"}, "1.3\n"},
		{[]string{"settings", "get", "global", "animator_duration_scale"}, "null\n"},
		{[]string{"settings", "put", "global", "animator_duration_scale", "5.0"}, ""},
		{[]string{"settings", "delete", "global", "animator_duration_scale"}, "Deleted 1 rows\n"},
		{[]string{"wm", "density"}, "Physical density: 420\n"},
		{[]string{"wm", "density", "360"}, ""},
		{[]string{"wm", "density"}, "Physical density: 420\nOverride density: 360\n"},
		{[]string{"cmd", "locale", "set-app-locales", "com.fixthis.demo", "--locales", "ar"}, ""},
		{[]string{"cmd", "locale", "get-app-locales", "com.fixthis.demo"}, "Locales for com.fixthis.demo for user 0 are [ar]\n"},
		{[]string{"cmd", "locale", "set-app-locales", "com.not.there", "--locales", "ar"}, "Unknown package com.not.there for userId 0\n"},
	} {
		if got := sh(c.args...); got != c.want {
			t.Errorf("%s: %q, want %q", strings.Join(c.args, " "), got, c.want)
		}
	}
	if out := sh("dumpsys", "uimode"); !strings.Contains(out, "mNightMode=2 (yes)") {
		t.Errorf("dumpsys uimode: %q", out)
	}
	out := sh("dumpsys", "window", "windows")
	if !strings.Contains(out, "mGlobalConfiguration={1.3 ?mcc?mnc [en_US] ldltr") || !strings.Contains(out, "360dpi lrg long port night finger") {
		t.Errorf("global configuration: %q", out)
	}
	if !strings.Contains(out, "[ar] ldrtl") {
		t.Errorf("the app's window should carry its locale: %q", out)
	}
	r := srv.ADB(t, "-s", dev.Serial(), "shell", "wm", "density", "50")
	if r.ExitCode == 0 || !strings.Contains(string(r.Stderr), "Error: density must be >= 72") {
		t.Errorf("wm density 50: %+v", r)
	}
	r = srv.ADB(t, "-s", dev.Serial(), "shell", "cmd", "uimode", "night", "maybe")
	if r.ExitCode == 0 || !strings.Contains(string(r.Stderr), "Error: mode must be") {
		t.Errorf("cmd uimode night maybe: %+v", r)
	}
}

// Android 10 and earlier clamp each side of a forced size to twice that side of the
// panel, Android 14 to three times its longer side.
func TestWmSizeClampOnAndroid9(t *testing.T) {
	srv := adbtest.StartServer(t)
	dev := srv.ConnectSim(t, sim.Options{Scenario: adbtest.DemoOnAndroid9(t), LatencyScale: 0})
	sh := func(args ...string) string {
		return srv.MustADB(t, append([]string{"-s", dev.Serial(), "shell"}, args...)...)
	}
	sh("wm", "size", "10x99999")
	if got, want := sh("wm", "size"), "Physical size: 1080x2400\nOverride size: 200x4800\n"; got != want {
		t.Errorf("after wm size 10x99999: %q, want %q", got, want)
	}
	sh("wm", "size", "5000x100")
	if got, want := sh("wm", "size"), "Physical size: 1080x2400\nOverride size: 2160x200\n"; got != want {
		t.Errorf("after wm size 5000x100: %q, want %q", got, want)
	}
}

// `wm size` sets, clamps, reports and clears the override as Android 14 does, and
// everything that draws or measures the screen follows it.
func TestWmSizeOverride(t *testing.T) {
	srv := adbtest.StartServer(t)
	dev := srv.ConnectSim(t, sim.Options{Scenario: "demo", LatencyScale: 0})
	sh := func(args ...string) string {
		return srv.MustADB(t, append([]string{"-s", dev.Serial(), "shell"}, args...)...)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"wm", "size"}, "Physical size: 1080x2400\n"},
		{[]string{"wm", "size", "1600x2560"}, ""},
		{[]string{"wm", "size"}, "Physical size: 1080x2400\nOverride size: 1600x2560\n"},
		{[]string{"wm", "size", "-d", "0"}, "Physical size: 1080x2400\nOverride size: 1600x2560\n"},
		{[]string{"wm", "size", "10x99999"}, ""}, // clamped, silently, as the window manager does
		{[]string{"wm", "size"}, "Physical size: 1080x2400\nOverride size: 200x7200\n"},
		{[]string{"wm", "size", "400dpx800dp"}, ""}, // at 420 dpi: 1050x2100
		{[]string{"wm", "size"}, "Physical size: 1080x2400\nOverride size: 1050x2100\n"},
		{[]string{"wm", "size", "1080x2400"}, ""}, // the physical size clears the override
		{[]string{"wm", "size"}, "Physical size: 1080x2400\n"},
		{[]string{"wm", "size", "1920x1200"}, ""},
		{[]string{"wm", "size", "reset"}, ""},
		{[]string{"wm", "size"}, "Physical size: 1080x2400\n"},
	} {
		if got := sh(c.args...); got != c.want {
			t.Errorf("%s: %q, want %q", strings.Join(c.args, " "), got, c.want)
		}
	}
	for _, c := range []struct{ arg, stderr string }{
		{"x100", "Error: bad size x100"},
		{"100x", "Error: bad size 100x"},
		{"big", "Error: bad size big"},
		{"abcx100", `Error: bad number java.lang.NumberFormatException: For input string: "abc"`},
		{"100x99999999999", `For input string: "99999999999"`},
	} {
		r := srv.ADB(t, "-s", dev.Serial(), "shell", "wm", "size", c.arg)
		if r.ExitCode == 0 || !strings.Contains(string(r.Stderr), c.stderr) {
			t.Errorf("wm size %s: exit %d, stderr %q, want %q", c.arg, r.ExitCode, r.Stderr, c.stderr)
		}
	}
	if out := sh("wm", "size"); out != "Physical size: 1080x2400\n" {
		t.Errorf("a refused size changed the display: %q", out)
	}

	sh("wm", "size", "1680x2100")
	sh("wm", "density", "240")
	out := sh("dumpsys", "window", "displays")
	if !strings.Contains(out, "init=1080x2400 420dpi base=1680x2100 240dpi cur=1680x2100") {
		t.Errorf("dumpsys window displays after wm size: %q", out)
	}
	if !strings.Contains(sh("dumpsys", "window", "windows"), "sw1120dp w1120dp h1400dp 240dpi xlrg notlong port") {
		t.Errorf("the configuration should be an expanded one")
	}
	png := srv.MustADB(t, "-s", dev.Serial(), "exec-out", "screencap", "-p")
	if w, h := pngSize(t, png); w != 1680 || h != 2100 {
		t.Errorf("screencap at the override: %dx%d", w, h)
	}
	xml := sh("uiautomator", "dump", "/dev/tty")
	if !strings.Contains(xml, `bounds="[0,0][1680,2100]"`) {
		t.Errorf("uiautomator should describe the override size: %.300s", xml)
	}
}

func pngSize(t *testing.T, b string) (int, int) {
	t.Helper()
	cfg, err := png.DecodeConfig(strings.NewReader(b))
	if err != nil {
		t.Fatalf("screencap -p: %v", err)
	}
	return cfg.Width, cfg.Height
}

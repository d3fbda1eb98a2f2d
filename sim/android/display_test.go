// The display commands through adb, and what dumpsys reports after them.
package android_test

import (
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
	if !strings.Contains(out, "mGlobalConfiguration={1.3 ?mcc?mnc [en_US] ldltr") || !strings.Contains(out, "360dpi nrml long port night finger") {
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

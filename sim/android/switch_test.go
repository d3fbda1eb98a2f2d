// Scenario switches and rotation over adb.
package android_test

import (
	"strings"
	"testing"

	"fixthis/adb/adbtest"
	"fixthis/sim"
)

// The demo switches scenario on its broadcast; rotation follows wm user-rotation and
// the user_rotation setting, as on a phone with auto-rotate off.
func TestScenarioSwitchAndRotation(t *testing.T) {
	srv := adbtest.StartServer(t)
	dev := srv.ConnectSim(t, sim.Options{Scenario: "demo", LatencyScale: 0})
	sh := func(args ...string) string {
		return srv.MustADB(t, append([]string{"-s", dev.Serial(), "shell"}, args...)...)
	}

	if out := sh("am", "broadcast", "-a", "com.fixthis.demo.SHOW_SCENARIO", "--es", "scenario", "sideways"); !strings.Contains(out, `result=0, data="unknown scenario \"sideways\"`) {
		t.Errorf("unknown scenario: %q", out)
	}
	if out := sh("am", "broadcast", "-a", "other.ACTION"); !strings.HasSuffix(out, "Broadcast completed: result=0\n") {
		t.Errorf("a broadcast nobody hears: %q", out)
	}
	if out := sh("am", "broadcast", "-a", "com.fixthis.demo.SHOW_SCENARIO", "--es", "scenario", "keyboard"); !strings.Contains(out, `result=-1, data="keyboard"`) {
		t.Fatalf("keyboard: %q", out)
	}
	if out := sh("dumpsys", "input_method"); !strings.Contains(out, "mInputShown=true") {
		t.Errorf("input_method with the keyboard up: %q", out)
	}
	sh("wm", "user-rotation", "lock", "1")
	if out := sh("settings", "get", "system", "user_rotation"); out != "1\n" {
		t.Errorf("user_rotation = %q", out)
	}
	if out := sh("dumpsys", "window", "displays"); !strings.Contains(out, "mRotation=1") {
		t.Errorf("displays after the turn: %q", out)
	}
	sh("settings", "put", "system", "user_rotation", "0")
	if out := sh("wm", "user-rotation"); out != "lock 0\n" {
		t.Errorf("wm user-rotation = %q", out)
	}
	if r := srv.ADB(t, "-s", dev.Serial(), "shell", "wm", "user-rotation", "lock", "7"); r.ExitCode == 0 || !strings.Contains(string(r.Stderr), "invalid rotation 7") {
		t.Errorf("bad rotation: exit %d %q", r.ExitCode, r.Stderr)
	}
}

// Installing and launching an APK over adb, and dumpsys package's shape.
package android_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"fixthis/adb/adbtest"
	"fixthis/internal/apktest"
	"fixthis/sim"
)

func writeAPK(t *testing.T, a apktest.App) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "app.apk")
	if err := os.WriteFile(p, apktest.Build(a), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestInstallLaunchOverRealADB drives the package manager with Debian's adb CLI:
// `adb install` streams the APK over exec:cmd package install -S, as it does to
// any phone with the cmd feature.
func TestInstallLaunchOverRealADB(t *testing.T) {
	srv := adbtest.StartServer(t)
	dev := srv.ConnectSim(t, sim.Options{})
	s := dev.Serial()
	notes := apktest.App{Package: "org.example.notes.debug", VersionCode: 3, VersionName: "1.3-dev", MinSdk: 26, Launcher: "org.example.notes.ui.NotesActivity"}

	out := srv.MustADB(t, "-s", s, "install", writeAPK(t, notes))
	if !strings.Contains(out, "Success") {
		t.Fatalf("adb install printed %q, want Success", out)
	}
	if list := srv.MustADB(t, "-s", s, "shell", "pm", "list", "packages", "-3"); !strings.Contains(list, "package:org.example.notes.debug\n") || !strings.Contains(list, "package:com.fixthis.demo\n") {
		t.Errorf("pm list packages -3 = %q", list)
	}
	if p := srv.MustADB(t, "-s", s, "shell", "pm", "path", "org.example.notes.debug"); !regexp.MustCompile(`^package:/data/app/org\.example\.notes\.debug-\d+/base\.apk\n$`).MatchString(p) {
		t.Errorf("pm path = %q", p)
	}
	dump := srv.MustADB(t, "-s", s, "shell", "dumpsys", "package", "org.example.notes.debug")
	for _, want := range []string{"versionCode=3 minSdk=26 targetSdk=", "versionName=1.3-dev\n", "lastUpdateTime=", "firstInstallTime="} {
		if !strings.Contains(dump, want) {
			t.Errorf("dumpsys package lacks %q:\n%s", want, dump)
		}
	}

	start := srv.MustADB(t, "-s", s, "shell", "am", "start", "-W", "-n", "org.example.notes.debug/org.example.notes.ui.NotesActivity")
	if !regexp.MustCompile(`(?s)^Starting: Intent \{ cmp=org\.example\.notes\.debug/org\.example\.notes\.ui\.NotesActivity \}\nStatus: ok\nLaunchState: COLD\nActivity: \S+\nTotalTime: \d+\nWaitTime: \d+\nComplete\n$`).MatchString(start) {
		t.Errorf("am start -W printed %q", start)
	}
	win := srv.MustADB(t, "-s", s, "shell", "dumpsys", "window", "displays")
	if !strings.Contains(win, "mCurrentFocus=Window{b3f29a4 u0 org.example.notes.debug/org.example.notes.ui.NotesActivity}") {
		t.Errorf("the launched app does not have focus:\n%s", win)
	}
	if xml := srv.MustADB(t, "-s", s, "exec-out", "uiautomator", "dump", "/dev/tty"); !strings.Contains(xml, `package="org.example.notes.debug"`) {
		t.Errorf("the placeholder screen's tree = %q", xml)
	}

	// BACK closes it; the demo app it covered is in front again.
	srv.MustADB(t, "-s", s, "shell", "input", "keyevent", "KEYCODE_BACK")
	if st := dev.Phone().State(); st.ForegroundPackage != "com.fixthis.demo" {
		t.Errorf("after BACK the front package is %q, want com.fixthis.demo", st.ForegroundPackage)
	}

	// Another key cannot update it; a lower versionCode is a downgrade.
	other := notes
	other.Key = "someone else"
	if r := srv.ADB(t, "-s", s, "install", "-r", writeAPK(t, other)); !strings.Contains(string(r.Stdout)+string(r.Stderr), "Failure [INSTALL_FAILED_UPDATE_INCOMPATIBLE: Existing package org.example.notes.debug signatures do not match newer version; ignoring!]") {
		t.Errorf("install with another key: %s %s", r.Stdout, r.Stderr)
	}
	older := notes
	older.VersionCode = 2
	if out := srv.MustADB(t, "-s", s, "shell", "pm install -S 1 < /dev/null; echo"); !strings.Contains(out, "Failure [INSTALL_FAILED_MEDIA_UNAVAILABLE") {
		t.Errorf("a short stream: %q", out)
	}
	if r := srv.ADB(t, "-s", s, "install", "-r", writeAPK(t, older)); !strings.Contains(string(r.Stdout)+string(r.Stderr), "INSTALL_FAILED_VERSION_DOWNGRADE") {
		t.Errorf("downgrade: %s %s", r.Stdout, r.Stderr)
	}
	if out := srv.MustADB(t, "-s", s, "uninstall", "org.example.notes.debug"); !strings.Contains(out, "Success") {
		t.Errorf("uninstall printed %q", out)
	}
	if r := srv.ADB(t, "-s", s, "shell", "am", "start", "-n", "org.example.notes.debug/org.example.notes.ui.NotesActivity"); !strings.Contains(string(r.Stdout)+string(r.Stderr), "does not exist") {
		t.Errorf("starting an uninstalled app: %s %s", r.Stdout, r.Stderr)
	}
}

// TestDumpsysPackageShape compares the sim's `dumpsys package` record with a real
// one: every field the real dump prints appears, in the same order and indentation.
func TestDumpsysPackageShape(t *testing.T) {
	srv := adbtest.StartServer(t)
	dev := srv.ConnectSim(t, sim.Options{})
	got := srv.MustADB(t, "-s", dev.Serial(), "shell", "dumpsys", "package", "com.fixthis.demo")
	real, err := os.ReadFile("testdata/dumpsys_package_api24.txt")
	if err != nil {
		t.Fatal(err)
	}
	keyRE := regexp.MustCompile(`^(\s*)([A-Za-z0-9 ]+?)[=:\[]`)
	pos := strings.Index(got, "\nPackages:\n")
	if pos < 0 {
		t.Fatalf("no Packages: section in\n%s", got)
	}
	for _, line := range strings.Split(string(real), "\n") {
		m := keyRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		key := m[1] + m[2]
		at := strings.Index(got[pos:], "\n"+key)
		if at < 0 {
			t.Errorf("the sim's dump has no %q line after offset %d (real line %q)", key, pos, line)
			continue
		}
		pos += at + 1
	}
	if !regexp.MustCompile(`\n    lastUpdateTime=\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\n`).MatchString(got) {
		t.Errorf("lastUpdateTime is not in the device's format:\n%s", got)
	}
}

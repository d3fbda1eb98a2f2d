package adbtest

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// DemoOnAndroid9 is the demo scenario on an Android 9 phone (see OnAndroid9).
func DemoOnAndroid9(tb testing.TB) string {
	tb.Helper()
	_, here, _, _ := runtime.Caller(0)
	return OnAndroid9(tb, filepath.Join(filepath.Dir(here), "..", "..", "sim", "scenario", "demo"))
}

// OnAndroid9 copies the scenario folder src (an Android 14 phone, as the demo's) to a
// temporary folder as an Android 9 (API 28) phone: one with no /system/bin/unzip
// (ziptool ships from Android 10), where an app's source index comes through its
// sidekick or the whole APK.
func OnAndroid9(tb testing.TB, src string) string {
	tb.Helper()
	dst := tb.TempDir()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(dst, "scenario.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	old := []byte(`"release": "14", "sdk": 34`)
	if !bytes.Contains(raw, old) {
		tb.Fatalf("the scenario in %s no longer says %s", src, old)
	}
	if err := os.WriteFile(path, bytes.Replace(raw, old, []byte(`"release": "9", "sdk": 28`), 1), 0o600); err != nil {
		tb.Fatal(err)
	}
	return dst
}

// NoRangedRead is an outputs directory (sim.Options.Outputs) pinning `dd` to print
// nothing: a test fixture, not a recorded phone (toybox's dd reads base.apk on every
// phone since Android 6), standing for any dd answer of the wrong length, e.g. stderr
// joined to stdout where there is no shell v2, so an app's source index is read
// another way (unzip, the sidekick, the whole APK).
func NoRangedRead(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "dd.txt"), nil, 0o600); err != nil {
		tb.Fatal(err)
	}
	return dir
}

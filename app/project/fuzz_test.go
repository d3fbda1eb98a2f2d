package project

import (
	"strings"
	"testing"
)

// FuzzParsePackageList: `pm list packages` output, however broken, yields only
// package names: no line end, never empty.
func FuzzParsePackageList(f *testing.F) {
	f.Add("package:com.android.shell\r\npackage:io.example.dyn.debug\n")
	f.Add("package:\npackage:\x00\n")
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range ParsePackageList(s) {
			if p == "" || strings.ContainsAny(p, "\r\n") {
				t.Fatalf("package %q", p)
			}
		}
	})
}

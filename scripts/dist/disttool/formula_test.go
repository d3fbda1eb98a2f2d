package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// The formula for two known tarballs matches testdata/fixthis.rb.golden byte for byte:
// the download URLs are the folder plus each file's name, the checksums are the
// files' own.
func TestFormulaGolden(t *testing.T) {
	dir := t.TempDir()
	arm := filepath.Join(dir, "fixthis-1.2.0-darwin-arm64.tar.gz")
	intel := filepath.Join(dir, "fixthis-1.2.0-darwin-amd64.tar.gz")
	os.WriteFile(arm, []byte("arm64 tarball\n"), 0o644)
	os.WriteFile(intel, []byte("amd64 tarball\n"), 0o644)
	out := filepath.Join(dir, "fixthis.rb")
	err := runFormula([]string{"-version", "1.2.0", "-url", "https://example.org/fixthis/releases/download/v1.2.0/",
		"-homepage", "https://example.org/fixthis", "-arm64", arm, "-amd64", intel, "-out", out})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(out)
	golden := filepath.Join("testdata", "fixthis.rb.golden")
	if *update {
		os.WriteFile(golden, got, 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatalf("formula differs from %s (go test -run TestFormulaGolden -update rewrites it):\n%s", golden, got)
	}
}

func TestFormulaRefuses(t *testing.T) {
	dir := t.TempDir()
	tarball := filepath.Join(dir, "fixthis-1.2.0-darwin-arm64.tar.gz")
	os.WriteFile(tarball, []byte("x"), 0o644)
	out := filepath.Join(dir, "fixthis.rb")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no version", []string{"-url", "https://x", "-arm64", tarball, "-amd64", tarball, "-out", out}, "are required"},
		{"missing tarball", []string{"-version", "1.2.0", "-url", "https://x", "-arm64", tarball, "-amd64", filepath.Join(dir, "none"), "-out", out}, "no such file"},
		{"quote in version", []string{"-version", `1.2.0"; system "id`, "-url", "https://x", "-arm64", tarball, "-amd64", tarball, "-out", out}, "cannot hold"},
		{"interpolation in url", []string{"-version", "1.2.0", "-url", "https://x/#{`id`}", "-arm64", tarball, "-amd64", tarball, "-out", out}, "cannot hold"},
		{"NUL in homepage", []string{"-version", "1.2.0", "-url", "https://x", "-homepage", "https://x\x00", "-arm64", tarball, "-amd64", tarball, "-out", out}, "cannot hold"},
		{"megabyte version", []string{"-version", strings.Repeat("1", 1<<20), "-url", "https://x", "-arm64", tarball, "-amd64", tarball, "-out", out}, ""},
	}
	for _, tc := range tests {
		err := runFormula(tc.args)
		if tc.want == "" {
			// A long but plain value is written as it is; nothing to refuse.
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

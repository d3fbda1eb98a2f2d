package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestBrowserCommand(t *testing.T) {
	url := "http://127.0.0.1:4242/#token=abc&x=1"
	tests := []struct {
		goos string
		want []string
	}{
		{"darwin", []string{"open", url}},
		{"windows", []string{"rundll32", "url.dll,FileProtocolHandler", url}},
		{"linux", []string{"xdg-open", url}},
		{"freebsd", []string{"xdg-open", url}},
	}
	for _, tc := range tests {
		name, args := browserCommand(tc.goos, url)
		if got := append([]string{name}, args...); strings.Join(got, "\x00") != strings.Join(tc.want, "\x00") {
			t.Errorf("%s: %q, want %q", tc.goos, got, tc.want)
		}
	}
}

// fakeOpener puts a program named name on an otherwise empty PATH that writes its
// arguments, one a line, to the returned file and exits with code.
func fakeOpener(t *testing.T, name string, code int) (argsFile string) {
	t.Helper()
	dir := t.TempDir()
	argsFile = filepath.Join(dir, "args")
	script := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done >'" + argsFile + "'\nexit " + string(rune('0'+code)) + "\n"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	return argsFile
}

// The macOS and Linux openers run for real: a stand-in open(1) or xdg-open receives the
// console URL whole (its # and & untouched), and nothing of the URL reaches the log.
func TestOpenInBrowser(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in openers are shell scripts")
	}
	url := "http://127.0.0.1:4242/#token=s3cret&x=1"
	for _, goos := range []string{"darwin", "linux"} {
		t.Run(goos, func(t *testing.T) {
			name, _ := browserCommand(goos, url)
			argsFile := fakeOpener(t, name, 0)
			var log bytes.Buffer
			openInBrowser(t.Context(), &log, goos, url)
			got, err := os.ReadFile(argsFile)
			if err != nil || string(got) != url+"\n" {
				t.Fatalf("%s got %q (%v), want the URL", name, got, err)
			}
			if log.Len() != 0 {
				t.Fatalf("a working opener logged %q", log.String())
			}
		})
	}
	t.Run("opener fails", func(t *testing.T) {
		fakeOpener(t, "open", 1)
		var log bytes.Buffer
		openInBrowser(t.Context(), &log, "darwin", url)
		if !strings.Contains(log.String(), "open could not open the console (exit status 1); open the console URL above yourself") ||
			strings.Contains(log.String(), "s3cret") {
			t.Fatalf("log %q", log.String())
		}
	})
	t.Run("no opener", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		var log bytes.Buffer
		openInBrowser(t.Context(), &log, "linux", url)
		if !strings.Contains(log.String(), "fixthis: could not open a browser (") || strings.Contains(log.String(), "s3cret") {
			t.Fatalf("log %q", log.String())
		}
	})
}

package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

func run(t *testing.T, env map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	// Keep the commands away from any real adb server: a private port and no adb
	// binary on PATH, so the device layer reports adb as missing instead of starting one.
	t.Setenv("ANDROID_ADB_SERVER_PORT", "1")
	t.Setenv("PATH", t.TempDir())
	var errb bytes.Buffer
	// A serving command runs until its context ends: end it once the command has
	// printed its first line (the address), however long opening the store took.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out := &firstLine{done: cancel}
	code = Run(ctx, Env{
		Stdout:  out,
		Stderr:  &errb,
		Console: fstest.MapFS{"index.html": {Data: []byte("x")}},
		Version: "9.9.9",
		Getenv:  func(k string) string { return env[k] },
	}, args)
	return code, out.String(), errb.String()
}

// firstLine is a stdout that calls done once a whole line has been written.
type firstLine struct {
	bytes.Buffer
	done func()
}

func (w *firstLine) Write(p []byte) (int, error) {
	n, err := w.Buffer.Write(p)
	if bytes.IndexByte(w.Bytes(), '\n') >= 0 {
		w.done()
	}
	return n, err
}

func TestRunExitCodes(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStdout string
		wantStderr string
	}{
		{"version", []string{"version"}, 0, "fixthis 9.9.9", ""},
		{"help", []string{"help"}, 0, "Usage: fixthis", ""},
		{"-h", []string{"-h"}, 0, "Usage: fixthis", ""},
		{"unknown command", []string{"frobnicate"}, 2, "", `unknown command "frobnicate"`},
		{"bad flag", []string{"serve", "--bogus"}, 2, "", "flag provided but not defined"},
		{"stray argument", []string{"version", "extra"}, 2, "", `unexpected argument "extra"`},
		{"contradicting demo flags", []string{"serve", "--demo", "--no-demo", "--project-dir", dir}, 2, "", "contradict"},
		{"missing project dir", []string{"serve", "--project-dir", dir + "/nope"}, 1, "", "is not a directory"},
		{"non-loopback serve", []string{"serve", "--addr", "0.0.0.0:0", "--project-dir", dir}, 1, "", "loopback"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := run(t, nil, tc.args...)
			if code != tc.wantCode {
				t.Fatalf("exit %d, want %d (stdout %q stderr %q)", code, tc.wantCode, out, errOut)
			}
			if !strings.Contains(out, tc.wantStdout) || !strings.Contains(errOut, tc.wantStderr) {
				t.Fatalf("stdout %q stderr %q; want %q / %q", out, errOut, tc.wantStdout, tc.wantStderr)
			}
			if tc.wantCode == 2 && !strings.Contains(errOut, "Usage:") {
				t.Fatalf("usage errors print usage to stderr: %q", errOut)
			}
		})
	}
}

func TestNoDisplayFallsBackToServe(t *testing.T) {
	code, out, errOut := run(t, map[string]string{}, "--project-dir", t.TempDir())
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "no display") || !strings.Contains(out, "http://127.0.0.1:") || !strings.Contains(out, "#token=") {
		t.Fatalf("stdout %q stderr %q", out, errOut)
	}
}

func TestServeJSONLine(t *testing.T) {
	code, out, errOut := run(t, nil, "serve", "--json", "--project-dir", t.TempDir())
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], `{"url":"http://127.0.0.1:`) || !strings.Contains(lines[0], `"consoleUrl"`) {
		t.Fatalf("want exactly one JSON line, got %q", out)
	}
}

package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"fixthis/app/store"
)

// TestReadOnlyCommandsCreateNoDataDir: looking at a project (doctor, prompt,
// mcp-config without --write) leaves no .fixthis folder behind.
func TestReadOnlyCommandsCreateNoDataDir(t *testing.T) {
	for _, args := range [][]string{{"doctor"}, {"prompt"}, {"mcp-config", "--target", "claude"}} {
		dir := t.TempDir()
		run(t, nil, append(args, "--project-dir", dir)...)
		if _, err := os.Stat(filepath.Join(dir, ".fixthis")); err == nil {
			t.Errorf("%v created .fixthis", args)
		}
	}
}

// TestSecondAppOnOneProjectIsRefused: while one app holds the project, a
// second `serve` stops with a message naming the first.
func TestSecondAppOnOneProjectIsRefused(t *testing.T) {
	dir := t.TempDir()
	loc, _ := store.NewLocations(dir)
	if err := os.MkdirAll(loc.DataDir(), 0o700); err != nil {
		t.Fatal(err)
	}
	first, err := store.LockApp(loc)
	if err != nil {
		t.Fatal(err)
	}
	code, _, errOut := run(t, nil, "serve", "--project-dir", dir)
	if code != 1 || !strings.Contains(errOut, "already running") || !strings.Contains(errOut, "process "+itoa(os.Getpid())) {
		t.Fatalf("second serve: exit %d, stderr %q", code, errOut)
	}
	first.Release()
	if again, err := store.LockApp(loc); err != nil {
		t.Fatalf("lock after the first app ended: %v", err)
	} else {
		again.Release()
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

package mcp

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"fixthis/internal/fulldisk"
)

// deadPID is the id of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skipf("run true: %v", err)
	}
	return cmd.Process.Pid
}

func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp") {
			out = append(out, e.Name())
		}
	}
	return out
}

func TestAnEndpointOfADeadProcessIsStale(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcp-endpoint.json")
	dead := EndpointFile{URL: "http://127.0.0.1:1111/mcp", Port: 1111, Token: strings.Repeat("t", 32), PID: deadPID(t)}
	if err := WriteEndpointFile(path, dead); err != nil {
		t.Fatal(err)
	}
	got, err := ReadEndpointFile(path)
	if err != nil || got != dead {
		t.Fatalf("read back %+v %v", got, err)
	}
	if err := got.Live(); !errors.Is(err, ErrEndpointStale) || !strings.Contains(err.Error(), "no longer running") {
		t.Fatalf("a dead process's endpoint: %v", err)
	}
	if err := (EndpointFile{PID: os.Getpid()}).Live(); err != nil {
		t.Fatalf("this process's endpoint: %v", err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v %v", fi, err)
	}
}

func TestRemoveEndpointFileOnlyRemovesItsOwn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcp-endpoint.json")
	if err := WriteEndpointFile(path, EndpointFile{URL: "u", PID: os.Getpid() + 1}); err != nil {
		t.Fatal(err)
	}
	if err := RemoveEndpointFile(path, os.Getpid()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal("a newer app's record was removed by an older one stopping")
	}
	if err := RemoveEndpointFile(path, os.Getpid()+1); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the app's own record is left after it stopped: %v", err)
	}
}

// TestARestartOnAFullDiskRecordsTheNewProcess: the record of the last run is
// replaced even when the disk has no room for a temporary copy, so a sidecar
// never forwards to the dead process (and never drives the phone beside the
// running app); nothing is left behind.
func TestARestartOnAFullDiskRecordsTheNewProcess(t *testing.T) {
	disk := fulldisk.Mount(t)
	path := filepath.Join(disk, "mcp-endpoint.json")
	old := EndpointFile{URL: "http://127.0.0.1:1111/mcp", Port: 1111, Token: strings.Repeat("t", 32), PID: deadPID(t)}
	if err := os.Remove(filepath.Join(disk, fulldisk.Filler)); err != nil {
		t.Fatal(err)
	}
	if err := WriteEndpointFile(path, old); err != nil {
		t.Fatal(err)
	}
	fulldisk.Fill(t, disk)

	now := EndpointFile{URL: "http://127.0.0.1:40123/mcp", Port: 40123, Token: old.Token, PID: os.Getpid()}
	if err := WriteEndpointFile(path, now); err != nil {
		t.Fatalf("record on a full disk: %v", err)
	}
	got, err := ReadEndpointFile(path)
	if err != nil || got != now || got.Live() != nil {
		t.Fatalf("after the restart the record is %+v (%v); want this process's", got, err)
	}
	if left := leftovers(t, disk); len(left) > 0 {
		t.Fatalf("left on the full disk: %v", left)
	}
}

func TestAFirstStartOnAFullDiskLeavesNoRecord(t *testing.T) {
	disk := fulldisk.Mount(t)
	path := filepath.Join(disk, "mcp-endpoint.json")
	err := WriteEndpointFile(path, EndpointFile{URL: "u", PID: os.Getpid()})
	if err == nil {
		t.Fatal("a record was written on a full disk with no room for it")
	}
	if _, serr := os.Stat(path); !errors.Is(serr, os.ErrNotExist) {
		t.Fatalf("a partial record is left: %v", serr)
	}
	if left := leftovers(t, disk); len(left) > 0 {
		t.Fatalf("left on the full disk: %v", left)
	}
}

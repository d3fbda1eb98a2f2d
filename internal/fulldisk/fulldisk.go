// Package fulldisk gives tests a real full disk: a tiny tmpfs mounted in a
// temporary directory and filled up, so writes fail with ENOSPC from the kernel
// as they do on a user's full disk. Only tests import it.
package fulldisk

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Filler is the file that takes the disk's space; removing it frees the disk.
const Filler = "filler"

// Mount mounts a 64 KiB tmpfs, creates dirs in it (before it fills), fills it
// and returns its path; it is unmounted when the test ends. Mounting needs root
// (a container's usual user); without it the test is skipped, never faked.
func Mount(t testing.TB, dirs ...string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("mount a tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", dir).Run() })
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	Fill(t, dir)
	return dir
}

// Fill writes to dir/Filler until the disk refuses.
func Fill(t testing.TB, dir string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(dir, Filler), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	block := make([]byte, 4096)
	for {
		if _, err := f.Write(block); err != nil {
			return // ENOSPC: the disk is full
		}
	}
}

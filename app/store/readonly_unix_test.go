//go:build unix

// The read-only check drops to the nobody user when run as root, which needs
// syscall.Credential: unix only.

package store

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"fixthis/app/errcode"
)

const readOnlyChildEnv = "FIXTHIS_STORE_READONLY_CHILD"

// TestReadOnlyDataDir makes .fixthis unwritable for the process opening the
// store. Root ignores permissions, so as root the open runs in a child
// process as nobody.
func TestReadOnlyDataDir(t *testing.T) {
	if dir := os.Getenv(readOnlyChildEnv); dir != "" {
		_, err := Open(context.Background(), dir, Options{})
		fmt.Printf("RESULT %v\n", err)
		return
	}
	dir := t.TempDir()
	s := openTest(t, dir)
	mustSession(t, s)
	s.Close()
	data := filepath.Join(dir, DataDirName)
	if os.Geteuid() != 0 {
		if err := os.Chmod(data, 0o500); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(data, 0o700)
		os.Chmod(filepath.Join(data, "fixthis.db"), 0o400)
		_, err := Open(context.Background(), dir, Options{})
		if errcode.Of(err) != errcode.StorageReadOnly || !strings.Contains(err.Error(), "read-only") {
			t.Fatalf("got %v", err)
		}
		return
	}
	out := runAsNobody(t, dir)
	if !strings.Contains(out, "RESULT STORAGE_READ_ONLY: store: .fixthis is read-only") {
		t.Fatalf("child said %q", out)
	}
	reopened := openTest(t, dir)
	integrityOK(t, reopened)
}

func runAsNobody(t *testing.T, dir string) string {
	t.Helper()
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The test binary lives in a root-only build dir; copy it where nobody
	// can execute it.
	exeDir, err := os.MkdirTemp("", "fixthis-store-test-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(exeDir)
	os.Chmod(exeDir, 0o755)
	copyPath := filepath.Join(exeDir, "store.test")
	src, err := os.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	dst, err := os.OpenFile(copyPath, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.Copy(dst, src)
	src.Close()
	dst.Close()
	if err != nil {
		t.Fatal(err)
	}
	// The project dir (and the per-test dir above it, both created by this
	// test) must be reachable by nobody; .fixthis itself stays 0700 root.
	for _, p := range []string{dir, filepath.Dir(dir)} {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for p := filepath.Dir(filepath.Dir(dir)); p != "/"; p = filepath.Dir(p) {
		if st, err := os.Stat(p); err != nil || st.Mode().Perm()&0o001 == 0 {
			t.Skipf("temp dir %s is not traversable by nobody; cannot run the read-only check as root", p)
		}
	}
	cmd := exec.Command(copyPath, "-test.run=^TestReadOnlyDataDir$")
	cmd.Env = append(os.Environ(), readOnlyChildEnv+"="+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child as nobody: %v\n%s", err, out)
	}
	return string(out)
}

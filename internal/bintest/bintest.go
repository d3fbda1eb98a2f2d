// Package bintest gives process benchmarks the fixthis command to run: the binary
// `make bench` built, or one built for the run. Only tests import it.
package bintest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Fixthis returns the absolute path of $FIXTHIS_BIN, else builds the command from
// the module at root (relative to the test's package) into a temporary directory,
// so the benchmark times what a developer's shell runs. It skips when it cannot
// build.
func Fixthis(b *testing.B, root string) string {
	b.Helper()
	if bin := os.Getenv("FIXTHIS_BIN"); bin != "" {
		abs, err := filepath.Abs(bin)
		if err != nil {
			b.Fatal(err)
		}
		return abs
	}
	bin := filepath.Join(b.TempDir(), "fixthis")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Skipf("cannot build fixthis for the process benchmark: %v\n%s", err, out)
	}
	return bin
}

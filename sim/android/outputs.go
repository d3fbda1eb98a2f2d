// Pinned command outputs: answers and delays read from the --outputs directory.
package android

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// spaceRun is what a command line's spaces become in a pinned output's name.
var spaceRun = regexp.MustCompile(`\s+`)

// pinnedOutput answers a shell command line from the --outputs directory: the
// contents of DIR/<name>.txt, where <name> is the longest file name that is a
// prefix of the command line with each run of spaces replaced by "_". So
// dumpsys_gfxinfo.txt answers `dumpsys gfxinfo com.x.y framestats` and
// logcat.txt answers every logcat command. The directory is read on every
// command, so a test can change what the device prints while it runs.
func (d *Device) pinnedOutput(script string) ([]byte, bool) {
	name := d.pinnedName(script, ".txt")
	if name == "" {
		return nil, false
	}
	b, err := os.ReadFile(filepath.Join(d.outputs, name))
	if err != nil {
		d.logf("sim: read pinned output: %v", err)
		return nil, false
	}
	return b, true
}

// pinnedDelay makes a command slow: DIR/<name>.delay, chosen the same way as
// a pinned output, holds a duration ("3s") the command waits before it runs
// or is answered. It is how tests make one collector time out.
func (d *Device) pinnedDelay(ctx context.Context, script string) error {
	name := d.pinnedName(script, ".delay")
	if name == "" {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(d.outputs, name))
	if err != nil {
		d.logf("sim: read pinned delay: %v", err)
		return nil
	}
	wait, err := time.ParseDuration(strings.TrimSpace(string(b)))
	if err != nil {
		d.logf("sim: %s: %v", name, err)
		return nil
	}
	return sleep(ctx, wait)
}

// pinnedName is the file in the outputs directory with the given extension
// whose name is the longest prefix of the command line ("" for none).
func (d *Device) pinnedName(script, ext string) string {
	if d.outputs == "" {
		return ""
	}
	key := spaceRun.ReplaceAllString(strings.TrimSpace(script), "_")
	entries, err := os.ReadDir(d.outputs)
	if err != nil {
		d.logf("sim: read outputs dir: %v", err)
		return ""
	}
	best := ""
	for _, en := range entries {
		name, ok := strings.CutSuffix(en.Name(), ext)
		if !ok || en.IsDir() || name == "" || !strings.HasPrefix(key, name) || len(name)+len(ext) <= len(best) {
			continue
		}
		best = en.Name()
	}
	return best
}

// CheckOutputs refuses an --outputs path that is not a readable directory, so a
// typo fails at start instead of silently answering nothing.
func CheckOutputs(dir string) error {
	if dir == "" {
		return nil
	}
	if _, err := os.ReadDir(dir); err != nil {
		return fmt.Errorf("outputs directory: %w", err)
	}
	return nil
}

package sim

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
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
	if d.outputs == "" {
		return nil, false
	}
	key := spaceRun.ReplaceAllString(strings.TrimSpace(script), "_")
	entries, err := os.ReadDir(d.outputs)
	if err != nil {
		d.logf("sim: read outputs dir: %v", err)
		return nil, false
	}
	best := ""
	for _, en := range entries {
		name, ok := strings.CutSuffix(en.Name(), ".txt")
		if !ok || en.IsDir() || name == "" || !strings.HasPrefix(key, name) || len(name) <= len(best) {
			continue
		}
		best = name
	}
	if best == "" {
		return nil, false
	}
	b, err := os.ReadFile(filepath.Join(d.outputs, best+".txt"))
	if err != nil {
		d.logf("sim: read pinned output: %v", err)
		return nil, false
	}
	return b, true
}

// checkOutputs refuses an --outputs path that is not a readable directory, so a
// typo fails at start instead of silently answering nothing.
func checkOutputs(dir string) error {
	if dir == "" {
		return nil
	}
	if _, err := os.ReadDir(dir); err != nil {
		return fmt.Errorf("outputs directory: %w", err)
	}
	return nil
}

package feedback

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPendingHandoffsFile: the list of waiting units is written whole and 0600,
// kept as the caller decides, removed when empty, and a malformed or oversized
// file is an error that names it rather than a partial list.
func TestPendingHandoffsFile(t *testing.T) {
	dir := t.TempDir()
	p := &pendingHandoffs{path: filepath.Join(dir, pendingFile)}
	a := pendingUnit{SessionID: "s1", VoiceSessionID: "v1", UnitID: "unit_0001"}
	b := pendingUnit{SessionID: "s1", VoiceSessionID: "v1", UnitID: "unit_0002"}
	for _, u := range []pendingUnit{a, b} {
		if err := p.add(u); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := p.load(); err != nil || len(got) != 2 || got[0] != a || got[1] != b {
		t.Fatalf("load: %v %v", got, err)
	}
	if fi, err := os.Stat(p.path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode: %v %v", fi.Mode(), err)
	}
	if err := p.keepOnly(func(u pendingUnit) bool { return u == b }); err != nil {
		t.Fatal(err)
	}
	if got, _ := p.load(); len(got) != 1 || got[0] != b {
		t.Fatalf("after keepOnly: %v", got)
	}
	if err := p.keepOnly(func(pendingUnit) bool { return false }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p.path); !os.IsNotExist(err) {
		t.Fatalf("an empty list leaves the file: %v", err)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(leftovers) != 0 {
		t.Fatalf("temporary files left: %v", leftovers)
	}
	for name, content := range map[string]string{
		"not JSON":   "{\x00",
		"not a list": `{"unitId":"u"}`,
		"oversized":  "[" + strings.Repeat(" ", maxPendingBytes) + "]",
	} {
		if err := os.WriteFile(p.path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := p.load(); err == nil || !strings.Contains(err.Error(), pendingFile) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// A unit noted after an unreadable list replaces it rather than failing.
	if err := p.add(a); err != nil {
		t.Fatal(err)
	}
	if got, err := p.load(); err != nil || len(got) != 1 {
		t.Fatalf("after replacing an unreadable list: %v %v", got, err)
	}
	// Without a project directory nothing is kept.
	if err := (&pendingHandoffs{}).add(a); err != nil {
		t.Fatal(err)
	}
}

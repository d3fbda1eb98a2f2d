package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fixthis/app/store"
)

// copyTree copies the demo project so the index cache lands in a temp dir.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestSourceMatchPrintsEvidenceAndReusesTheCache(t *testing.T) {
	dir := copyTree(t, filepath.Join("..", "examples", "trailhead"))
	args := []string{"source", "match", "--project-dir", dir, "--text", "Weather alerts", "--activity", ".SettingsActivity", "--json"}
	var first, second struct {
		Candidates []struct {
			File       string   `json:"file"`
			Confidence string   `json:"confidence"`
			Margin     float64  `json:"margin"`
			Matched    []string `json:"matched"`
		} `json:"candidates"`
		Confident bool `json:"confident"`
		Cached    bool `json:"cached"`
	}
	for i, into := range []any{&first, &second} {
		code, out, errOut := run(t, nil, args...)
		if code != 0 {
			t.Fatalf("run %d: exit %d: %s", i, code, errOut)
		}
		if err := json.Unmarshal([]byte(out), into); err != nil {
			t.Fatalf("run %d: %v in %q", i, err, out)
		}
	}
	if first.Cached || !second.Cached {
		t.Fatalf("cached = %v then %v, want false then true", first.Cached, second.Cached)
	}
	if len(second.Candidates) == 0 || !second.Confident {
		t.Fatalf("want a confident candidate, got %+v", second)
	}
	top := second.Candidates[0]
	if !strings.HasSuffix(top.File, "activity_settings.xml") || top.Confidence == "" || len(top.Matched) == 0 {
		t.Fatalf("top candidate %+v", top)
	}
	loc, _ := store.NewLocations(dir)
	st, err := os.Stat(loc.SourceIndexCache())
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("cache file: %v %v", st, err)
	}

	code, out, _ := run(t, nil, "source", "match", "--project-dir", dir, "--text", "Weather alerts", "--activity", ".SettingsActivity")
	if code != 0 || !strings.Contains(out, "conf=high") || !strings.Contains(out, "margin=") || !strings.Contains(out, "matched=[") {
		t.Fatalf("human output: %q", out)
	}
}

func TestSourceMatchSaysWhenNothingIsConfident(t *testing.T) {
	dir := t.TempDir()
	res := filepath.Join(dir, "src", "main", "res", "values")
	if err := os.MkdirAll(res, 0o755); err != nil {
		t.Fatal(err)
	}
	xml := `<resources><string name="orphan">Nobody uses me</string></resources>`
	if err := os.WriteFile(filepath.Join(res, "strings.xml"), []byte(xml), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, nil, "source", "match", "--project-dir", dir, "--text", "Nobody uses me", "--cache=false")
	if code != 0 || !strings.Contains(out, "No confident match") || !strings.Contains(out, "strings.xml") {
		t.Fatalf("exit %d stdout %q stderr %q", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, store.DataDirName)); !os.IsNotExist(err) {
		t.Fatalf("--cache=false must not write %s: %v", store.DataDirName, err)
	}
}

package source

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// copyProject copies the synthetic project into a temporary directory so a
// test can edit files.
func copyProject(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(testProject, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(testProject, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func edit(t *testing.T, root, rel, old, new string) {
	t.Helper()
	p := filepath.Join(root, rel)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s lacks %q", rel, old)
	}
	// Bump the mtime explicitly: some file systems have coarse timestamps.
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(2 * time.Second)
	if err := os.Chtimes(p, later, later); err != nil {
		t.Fatal(err)
	}
}

const homeFile = "app/src/main/java/com/example/demo/HomeScreen.kt"

func TestUpdateAndStale(t *testing.T) {
	ctx := context.Background()
	root := copyProject(t)
	idx := buildTest(t, root)

	edit(t, root, homeFile, `Text("Welcome back")`, `Text("Welcome home")`)
	c := idx.Match(Query{Text: "Welcome back"})
	if len(c) == 0 || c[0].File != homeFile || !c[0].Stale {
		t.Fatalf("before Update: want a stale HomeScreen candidate, got %+v", c)
	}
	if err := idx.Update(ctx, []string{filepath.Join(root, homeFile)}); err != nil {
		t.Fatal(err)
	}
	if c := idx.Match(Query{Text: "Welcome home"}); len(c) == 0 || c[0].File != homeFile || c[0].Stale {
		t.Fatalf("after Update: %+v", c)
	}
	if c := idx.Match(Query{Text: "Welcome back"}); len(c) > 0 && c[0].File == homeFile {
		t.Fatalf("old text still indexed in HomeScreen: %+v", c)
	}

	// A new file in a module, and a deleted one.
	newRel := "core/ui/src/main/java/com/example/ui/Banner.kt"
	if err := os.WriteFile(filepath.Join(root, newRel), []byte("@Composable\nfun Banner() { Text(\"Fresh banner\") }\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, "app/src/main/java/com/example/demo/Previews.kt")); err != nil {
		t.Fatal(err)
	}
	changed, err := idx.Refresh(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(changed) != 2 {
		t.Errorf("Refresh changed %v, want the new and the deleted file", changed)
	}
	if c := idx.Match(Query{Text: "Fresh banner"}); len(c) == 0 || c[0].File != newRel || c[0].Owner != "Banner" {
		t.Errorf("new file not indexed: %+v", c)
	}
	if st := idx.Stats(); st.KotlinFiles != 5 {
		t.Errorf("KotlinFiles = %d after add+delete, want 5", st.KotlinFiles)
	}
}

func TestWatch(t *testing.T) {
	root := copyProject(t)
	idx := buildTest(t, root)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	seen := make(chan []string, 4)
	done := make(chan error, 1)
	go func() { done <- idx.Watch(ctx, 10*time.Millisecond, func(p []string) { seen <- p }) }()
	edit(t, root, homeFile, `text = "Cancel"`, `text = "Dismiss"`)
	select {
	case p := <-seen:
		if len(p) != 1 || p[0] != homeFile {
			t.Errorf("watch reported %v", p)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("watch did not notice the edit")
	}
	if c := idx.Match(Query{Text: "Dismiss"}); len(c) == 0 || c[0].File != homeFile {
		t.Errorf("watched edit not indexed: %+v", c)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Watch returned %v", err)
	}
}

func TestMarshalRoundTrip(t *testing.T) {
	idx := buildTest(t, testProject)
	back := roundTrip(t, idx)
	for _, q := range []Query{{Text: "Good morning"}, {TestTag: "profile_card"}, {Text: "Save"}} {
		a, b := idx.Match(q), back.Match(q)
		if len(a) != len(b) || len(a) == 0 || a[0].File != b[0].File || a[0].Line != b[0].Line || a[0].Score != b[0].Score {
			t.Errorf("Match(%+v) differs after round trip: %+v vs %+v", q, a, b)
		}
	}
	if _, err := unmarshal([]byte("garbage"), nil); err == nil {
		t.Error("unmarshal accepted garbage")
	}
}

func TestEditSurfaces(t *testing.T) {
	idx := buildTest(t, testProject)
	save := idx.Match(Query{Text: "Save"})
	greeting := idx.Match(Query{Text: "Good morning"})
	button := idx.Match(Query{TestTag: "comp:PrimaryButton:root"})
	tests := []struct {
		name    string
		comment string
		target  SurfaceTarget
		cands   []Candidate
		roles   []string
		kind    string
	}{
		{"copy through resource", "Change the greeting text to Hi", SurfaceTarget{Kind: "node"}, greeting, []string{RoleCopy}, "copy"},
		{"style at call site", "more padding please", SurfaceTarget{Kind: "node"}, save, []string{RoleLayoutStyle}, "spacing"},
		{"style of shared component", "make the corners rounded", SurfaceTarget{Kind: "node"}, button, []string{RoleDefinition, RoleCallSite}, "shape"},
		{"visual area", "this looks off", SurfaceTarget{Kind: "area"}, save, []string{RoleVisualArea, RoleCallSite}, "general"},
		{"interop", "wrong colour", SurfaceTarget{Kind: "node", Class: "android.webkit.WebView"}, save, []string{RoleInterop, RoleLayoutStyle}, "color"},
		{"no candidates", "padding", SurfaceTarget{Kind: "node"}, nil, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := EditSurfaces(tt.comment, tt.target, tt.cands)
			var roles []string
			for _, s := range got {
				roles = append(roles, s.Role)
				if s.File == "" || s.Action == "" || len(s.Why) == 0 || s.Kind != tt.kind {
					t.Errorf("incomplete surface %+v", s)
				}
			}
			if strings.Join(roles, ",") != strings.Join(tt.roles, ",") {
				t.Errorf("roles = %v, want %v", roles, tt.roles)
			}
		})
	}
	if got := EditSurfaces("fix the label", SurfaceTarget{Kind: "node"}, greeting); got[0].File != "app/src/main/res/values/strings.xml" {
		t.Errorf("copy surface should point at strings.xml, got %+v", got[0])
	}
}

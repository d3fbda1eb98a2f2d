package source

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const testProject = "testdata/project"

// lineOf returns the 1-based line of the first line in file containing s.
func lineOf(t *testing.T, root, file, s string) int {
	t.Helper()
	f, err := os.Open(filepath.Join(root, file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if strings.Contains(sc.Text(), s) {
			return n
		}
	}
	t.Fatalf("%s has no line containing %q", file, s)
	return 0
}

func buildTest(t *testing.T, dir string) *Index {
	t.Helper()
	idx, err := Build(context.Background(), dir)
	if err != nil {
		t.Fatalf("Build(%s): %v", dir, err)
	}
	return idx
}

// roundTrip is idx after a trip through the cache's bytes.
func roundTrip(t *testing.T, idx *Index) *Index {
	t.Helper()
	data, err := idx.marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := unmarshal(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	return back
}

// topWant is what a match table expects of the top candidate: its file, a text
// on its line, its owner, its reason tokens and, when not "", its confidence.
type topWant struct {
	file, at, owner string
	tokens          []string
	conf            string
}

// matchTop matches q and fails the test unless the top candidate is w, at the
// line in project that holds w.at; it returns every candidate.
func matchTop(t *testing.T, idx *Index, project string, q Query, w topWant) []Candidate {
	t.Helper()
	got := idx.Match(q)
	if len(got) == 0 {
		t.Fatal("no candidates")
	}
	c := got[0]
	if c.File != w.file || c.Line != lineOf(t, project, w.file, w.at) {
		t.Fatalf("top = %s:%d, want %s at %q (all: %+v)", c.File, c.Line, w.file, w.at, got)
	}
	if c.Owner != w.owner {
		t.Errorf("owner = %q, want %q", c.Owner, w.owner)
	}
	if !slices.Equal(c.Matched, w.tokens) {
		t.Errorf("matched = %v, want %v", c.Matched, w.tokens)
	}
	if w.conf != "" && c.Confidence != w.conf {
		t.Errorf("confidence = %s, want %s (score %.2f margin %.2f)", c.Confidence, w.conf, c.Score, c.Margin)
	}
	return got
}

func TestReadModules(t *testing.T) {
	tests := []struct {
		name, file, body string
		want             []string
	}{
		{"kts list over lines, comments ignored", "settings.gradle.kts",
			"include(\n  \":app\",\n  \":core:ui\",\n)\n// include(\":legacy\")\n", []string{":app=app", ":core:ui=core/ui"}},
		{"groovy with continuation", "settings.gradle",
			"include ':app',\n        ':lib'\ninclude ':feature:a'\n", []string{":app=app", ":lib=lib", ":feature:a=feature/a"}},
		{"custom projectDir", "settings.gradle",
			"include ':x'\nproject(':x').projectDir = new File(rootDir, 'modules/x')\n", []string{":x=modules/x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, tt.file), []byte(tt.body), 0o600); err != nil {
				t.Fatal(err)
			}
			mods, err := readModules(dir)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range mods[1:] {
				got = append(got, m.Name+"="+m.Dir)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("modules = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestBuildStats(t *testing.T) {
	idx := buildTest(t, testProject)
	st := idx.Stats()
	if st.Reason != "" {
		t.Fatalf("unexpected reason %q", st.Reason)
	}
	want := Stats{Modules: 3, Files: 7, KotlinFiles: 5, StringFiles: 2, Composables: 4, Activities: 1, SharedCallees: 1}
	got := Stats{Modules: st.Modules, Files: st.Files, KotlinFiles: st.KotlinFiles, StringFiles: st.StringFiles,
		Composables: st.Composables, Activities: st.Activities, SharedCallees: st.SharedCallees}
	if got != want {
		t.Errorf("stats = %+v, want %+v", got, want)
	}
}

func TestDefinitionsAndOwners(t *testing.T) {
	idx := buildTest(t, testProject)
	fi := idx.files["app/src/main/java/com/example/demo/HomeScreen.kt"]
	if fi == nil {
		t.Fatal("HomeScreen.kt not indexed")
	}
	var names []string
	for _, d := range fi.Defs {
		names = append(names, d.Name)
	}
	if !slices.Equal(names, []string{"HomeScreen", "ProfileCard"}) {
		t.Fatalf("defs = %v", names)
	}
	card := fi.Defs[1]
	end := lineOf(t, testProject, fi.Path, `Text('"'.toString()`) + 1
	if int(card.EndLine) != end {
		t.Errorf("ProfileCard (expression body) ends at %d, want %d", card.EndLine, end)
	}
	for _, e := range fi.Entries {
		if strings.Contains(e.Value, "comment") || strings.Contains(e.Value, "fake") && e.Kind != kindLiteral {
			t.Errorf("masked text leaked into entry %+v", e)
		}
		if e.Kind == kindConst && e.Owner >= 0 {
			t.Errorf("constant outside composables has owner %d", e.Owner)
		}
	}
}

func TestMatch(t *testing.T) {
	idx := buildTest(t, testProject)
	home := "app/src/main/java/com/example/demo/HomeScreen.kt"
	button := "core/ui/src/main/java/com/example/ui/PrimaryButton.kt"
	tests := []struct {
		name      string
		q         Query
		file      string
		lineText  string
		owner     string
		tokens    []string
		conf      string
		caution   bool
		resource  bool
		nCallSite int
	}{
		{"literal Text beats preview and test", Query{Text: "Welcome back"}, home, `Text("Welcome back")`, "HomeScreen", []string{TokText}, "high", false, false, 0},
		{"case and spacing folded", Query{Text: "  WELCOME   back "}, home, `Text("Welcome back")`, "HomeScreen", []string{TokText}, "high", false, false, 0},
		{"resolved string resource", Query{Text: "Good morning"}, home, "R.string.greeting", "HomeScreen", []string{TokResolvedRes}, "medium", false, true, 0},
		{"translated value resolves too", Query{Text: "Guten Morgen"}, home, "R.string.greeting", "HomeScreen", []string{TokResolvedRes}, "", false, true, 0},
		{"format argument", Query{Text: "3 items in your cart"}, home, "R.string.items_count", "HomeScreen", []string{TokResolvedRes}, "", false, true, 0},
		{"content description resource", Query{ContentDescription: "Open settings"}, home, "R.string.cd_settings", "HomeScreen", []string{TokResolvedRes}, "", false, true, 0},
		{"template literal", Query{Text: "Hello, Ana!"}, home, `Text("Hello, ${`, "HomeScreen", []string{TokText}, "", false, false, 0},
		{"call-site argument", Query{Text: "Save", Role: "Button"}, home, `text = "Save"`, "HomeScreen", []string{TokText}, "", false, false, 0},
		{"tag via constant", Query{TestTag: "profile_card"}, home, "testTag(ProfileTags.CARD)", "ProfileCard", []string{TokTag}, "", false, false, 0},
		{"comp convention", Query{TestTag: "comp:PrimaryButton:root"}, button, "testTag(\"comp:PrimaryButton:root\")", "PrimaryButton", []string{TokTag}, "high", true, false, 2},
		{"screen convention", Query{TestTag: "screen:HomeScreen:root", Role: "Image"}, home, `testTag("screen:HomeScreen:root")`, "HomeScreen", []string{TokTag, TokRole}, "high", false, false, 0},
		{"nearby only", Query{Nearby: []NearbyNode{{Text: "Cancel"}}}, home, `text = "Cancel"`, "HomeScreen", []string{TokNearbyText}, "low", false, false, 0},
		{"nearby corroborates and activity", Query{Text: "Welcome back", Activity: "com.example.demo/.MainActivity", Nearby: []NearbyNode{{Text: "Save"}}}, home, `Text("Welcome back")`, "HomeScreen", []string{TokText, TokNearbyText, TokActivity}, "high", false, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := matchTop(t, idx, testProject, tt.q, topWant{tt.file, tt.lineText, tt.owner, tt.tokens, tt.conf})
			c := got[0]
			if (c.Caution != "") != tt.caution || len(c.CallSites) != tt.nCallSite {
				t.Errorf("caution = %q callSites = %v", c.Caution, c.CallSites)
			}
			if (c.ResourceFile != "") != tt.resource {
				t.Errorf("resource = %s:%d", c.ResourceFile, c.ResourceLine)
			}
			if c.Stale {
				t.Error("fresh candidate reported stale")
			}
			for i := 1; i < len(got); i++ {
				if got[i].Score > got[i-1].Score {
					t.Errorf("candidates not sorted: %v", got)
				}
			}
		})
	}
	if got := idx.Match(Query{Text: "Nothing like this"}); got != nil {
		t.Errorf("unknown text matched %v", got)
	}
}

func TestMissingProject(t *testing.T) {
	for _, dir := range []string{filepath.Join(t.TempDir(), "nope"), ""} {
		idx := buildTest(t, dir)
		st := idx.Stats()
		if st.Reason == "" || st.Files != 0 {
			t.Errorf("Build(%q) stats = %+v, want a reason and no files", dir, st)
		}
		if got := idx.Match(Query{Text: "x"}); got != nil {
			t.Errorf("empty index matched %v", got)
		}
	}
}

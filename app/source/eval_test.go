package source

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The source evaluation: hand-written cases over open-source Android apps of
// several styles (testdata/sourceeval/cases.json). Each case records the
// project and commit, what a uiautomator node shows (text as rendered,
// content-desc, resource-id, class, foreground activity, a few neighbours) and
// the file(s) a developer would edit. The projects are not in the repository:
// check each one out at its commit under FIXTHIS_EVAL_ROOT/<name> and run
//
//	FIXTHIS_EVAL_ROOT=/path/to/checkouts go test ./app/source -run SourceEval -v
//
// which prints right-file-first and top-3 per kind, for the dev and the
// held-out set, and fails when a set falls below the floors in the file.

type evalFile struct {
	Projects []evalProject `json:"projects"`
	// Floors are the lowest acceptable shares (0..1) per set, so a change that
	// loses cases fails the run instead of going unnoticed.
	Floors map[string]evalFloor `json:"floors"`
	Cases  []evalCase           `json:"cases"`
}

type evalProject struct {
	Name   string `json:"name"`
	Repo   string `json:"repo"`
	Commit string `json:"commit"`
	Set    string `json:"set"`
	Style  string `json:"style"`
}

type evalFloor struct {
	First float64 `json:"first"`
	Top3  float64 `json:"top3"`
}

type evalCase struct {
	ID      string   `json:"id"`
	Project string   `json:"project"`
	Set     string   `json:"set"`
	Kind    string   `json:"kind"`
	Class   string   `json:"class"`
	Query   Query    `json:"query"`
	Expect  []string `json:"expect"`
	Note    string   `json:"note"`
}

var evalKinds = map[string]bool{
	"resource id": true, "test tag": true, "content description": true, "string resource": true,
	"same text on several screens": true, "feature module": true, "formatted/plural": true,
	"preference screen": true, "custom attribute": true,
}

func loadEval(t *testing.T) evalFile {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "sourceeval", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ef evalFile
	if err := json.Unmarshal(data, &ef); err != nil {
		t.Fatalf("cases.json: %v", err)
	}
	return ef
}

// TestSourceEvalCasesWellFormed runs always: the case file must stay usable
// (known projects and kinds, a query and an expected file in every case, a
// held-out set from its own project) even where the projects are absent.
func TestSourceEvalCasesWellFormed(t *testing.T) {
	ef := loadEval(t)
	sets := map[string]string{}
	for _, p := range ef.Projects {
		if len(p.Commit) != 40 || p.Repo == "" {
			t.Errorf("project %s: want repo and a 40-hex commit, got %q %q", p.Name, p.Repo, p.Commit)
		}
		sets[p.Name] = p.Set
	}
	ids := map[string]bool{}
	count := map[string]int{}
	for _, c := range ef.Cases {
		if ids[c.ID] {
			t.Errorf("duplicate case id %s", c.ID)
		}
		ids[c.ID] = true
		if sets[c.Project] != c.Set {
			t.Errorf("%s: project %q is in set %q, the case says %q", c.ID, c.Project, sets[c.Project], c.Set)
		}
		if !evalKinds[c.Kind] {
			t.Errorf("%s: unknown kind %q", c.ID, c.Kind)
		}
		q := c.Query
		if q.Text == "" && q.ContentDescription == "" && q.TestTag == "" && q.ResourceID == "" {
			t.Errorf("%s: empty query", c.ID)
		}
		if len(c.Expect) == 0 {
			t.Errorf("%s: no expected file", c.ID)
		}
		count[c.Set]++
	}
	if len(ef.Cases) < 100 || count["heldout"] < 30 {
		t.Errorf("want ≥ 100 cases with ≥ 30 held out, have %d (%v)", len(ef.Cases), count)
	}
	for set := range count {
		if _, ok := ef.Floors[set]; !ok {
			t.Errorf("no floor for set %s", set)
		}
	}
}

type evalTally struct{ n, first, top3 int }

func (e *evalTally) add(rank int) {
	e.n++
	if rank == 0 {
		e.first++
	}
	if rank >= 0 && rank < 3 {
		e.top3++
	}
}

func pct(a, n int) float64 {
	if n == 0 {
		return 0
	}
	return 100 * float64(a) / float64(n)
}

// evalRank is the position of the first expected file among the distinct
// candidate files, or -1.
func evalRank(cands []Candidate, expect []string) (int, []string) {
	var files []string
	seen := map[string]bool{}
	for _, c := range cands {
		if !seen[c.File] {
			seen[c.File] = true
			files = append(files, c.File)
		}
	}
	for i, f := range files {
		for _, e := range expect {
			if f == e {
				return i, files
			}
		}
	}
	return -1, files
}

func TestSourceEval(t *testing.T) {
	root := os.Getenv("FIXTHIS_EVAL_ROOT")
	if root == "" {
		t.Skip("set FIXTHIS_EVAL_ROOT to a folder holding the projects of testdata/sourceeval/cases.json, each checked out at its commit, to run the source evaluation")
	}
	ef := loadEval(t)
	indexes := map[string]*Index{}
	for _, p := range ef.Projects {
		dir := filepath.Join(root, p.Name)
		if _, err := os.Stat(dir); err != nil {
			t.Fatalf("project %s (%s @ %s) is missing under %s", p.Name, p.Repo, p.Commit, root)
		}
		if out, err := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output(); err == nil {
			if head := strings.TrimSpace(string(out)); head != p.Commit {
				t.Errorf("%s is at %s, the cases were written for %s", p.Name, head, p.Commit)
			}
		}
		idx, err := Build(context.Background(), dir)
		if err != nil {
			t.Fatalf("index %s: %v", p.Name, err)
		}
		indexes[p.Name] = idx
	}
	tallies := map[string]map[string]*evalTally{} // set → kind ("all" too)
	// Cases with no candidate at all, and cases whose best candidate is a
	// string definition rather than a use.
	empty, defFirst := map[string]int{}, map[string]int{}
	for _, c := range ef.Cases {
		cands := indexes[c.Project].Match(c.Query)
		rank, _ := evalRank(cands, c.Expect)
		switch {
		case len(cands) == 0:
			empty[c.Set]++
		case IsStringsDefinition(cands[0].File):
			defFirst[c.Set]++
		}
		if tallies[c.Set] == nil {
			tallies[c.Set] = map[string]*evalTally{}
		}
		for _, k := range []string{c.Kind, "all", "project " + c.Project} {
			if tallies[c.Set][k] == nil {
				tallies[c.Set][k] = &evalTally{}
			}
			tallies[c.Set][k].add(rank)
		}
		if rank != 0 && testing.Verbose() {
			var got []string
			for _, cd := range cands[:min(len(cands), 3)] {
				got = append(got, fmt.Sprintf("%s:%d %.2f %v", cd.File, cd.Line, cd.Score, cd.Matched))
			}
			t.Logf("%s %-28s rank=%d want %v\n\tgot %s", c.ID, c.Kind, rank, c.Expect, strings.Join(got, "\n\t    "))
		}
	}
	var sets []string
	for s := range tallies {
		sets = append(sets, s)
	}
	sort.Strings(sets)
	for _, s := range sets {
		var b strings.Builder
		fmt.Fprintf(&b, "\n%-30s %5s %7s %7s", s, "cases", "first", "top 3")
		var kinds []string
		for k := range tallies[s] {
			if k != "all" {
				kinds = append(kinds, k)
			}
		}
		sort.Slice(kinds, func(i, j int) bool {
			// Kinds first, then the per-project rows.
			pi, pj := strings.HasPrefix(kinds[i], "project "), strings.HasPrefix(kinds[j], "project ")
			if pi != pj {
				return pj
			}
			return kinds[i] < kinds[j]
		})
		for _, k := range append(kinds, "all") {
			e := tallies[s][k]
			fmt.Fprintf(&b, "\n%-30s %5d %6.0f%% %6.0f%%", k, e.n, pct(e.first, e.n), pct(e.top3, e.n))
		}
		fmt.Fprintf(&b, "\nno candidate: %d; a strings file first: %d", empty[s], defFirst[s])
		t.Log(b.String())
		all, floor := tallies[s]["all"], ef.Floors[s]
		if pct(all.first, all.n) < 100*floor.First || pct(all.top3, all.n) < 100*floor.Top3 {
			t.Errorf("%s: first %.1f%% / top 3 %.1f%%, below the floor %.0f%% / %.0f%%",
				s, pct(all.first, all.n), pct(all.top3, all.n), 100*floor.First, 100*floor.Top3)
		}
	}
}

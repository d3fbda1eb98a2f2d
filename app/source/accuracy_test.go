package source

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// Accuracy on real projects: set FIXTHIS_ACCURACY_DIR to a checkout whose
// sub-folders are Android projects (e.g. Google's compose-samples). Cases are
// derived with plain regular expressions, independent of the index's lexer:
// each visible string (a Text literal, a contentDescription literal, a testTag,
// or a stringResource resolved through values/strings.xml) maps to the set of
// main-source files that render it. A case counts as found when the first (or
// one of the first three) candidate files is in that set.

var (
	accText  = regexp.MustCompile(`\bText\(\s*(?:text\s*=\s*)?"([^"$\\]{2,})"`)
	accCD    = regexp.MustCompile(`contentDescription\s*=\s*"([^"$\\]{2,})"`)
	accTag   = regexp.MustCompile(`testTag\(\s*"([^"$\\]{2,})"`)
	accRes   = regexp.MustCompile(`(contentDescription\s*=\s*)?stringResource\(\s*(?:id\s*=\s*)?R\.string\.(\w+)\s*\)`)
	accValue = regexp.MustCompile(`(?s)<string name="([^"]+)"[^>]*>(.*?)</string>`)
)

type accCase struct {
	field, value string
	files        map[string]bool
}

func accuracyCases(t *testing.T, project string) []accCase {
	t.Helper()
	res := map[string]string{}
	var kotlin []string
	err := filepath.WalkDir(project, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(project, p)
		rel = filepath.ToSlash(rel)
		switch {
		case strings.HasSuffix(rel, "/src/main/res/values/strings.xml"):
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			for _, m := range accValue.FindAllStringSubmatch(string(b), -1) {
				v := strings.NewReplacer(`\'`, "'", "&amp;", "&", `\n`, "\n").Replace(m[2])
				if !strings.ContainsAny(v, "%<") {
					res[m[1]] = v
				}
			}
		case strings.HasSuffix(rel, ".kt") && strings.Contains(rel, "/src/main/"):
			kotlin = append(kotlin, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walk %s: %v", project, err)
	}
	byKey := map[[2]string]map[string]bool{}
	note := func(field, value, file string) {
		k := [2]string{field, value}
		if byKey[k] == nil {
			byKey[k] = map[string]bool{}
		}
		byKey[k][file] = true
	}
	for _, rel := range kotlin {
		b, err := os.ReadFile(filepath.Join(project, rel))
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		for _, m := range accText.FindAllStringSubmatch(src, -1) {
			note("text", m[1], rel)
		}
		for _, m := range accCD.FindAllStringSubmatch(src, -1) {
			note("cd", m[1], rel)
		}
		for _, m := range accTag.FindAllStringSubmatch(src, -1) {
			note("tag", m[1], rel)
		}
		for _, m := range accRes.FindAllStringSubmatch(src, -1) {
			if v, ok := res[m[2]]; ok {
				field := "text"
				if m[1] != "" {
					field = "cd"
				}
				note(field, v, rel)
			}
		}
	}
	var cases []accCase
	for k, files := range byKey {
		cases = append(cases, accCase{k[0], k[1], files})
	}
	sort.Slice(cases, func(i, j int) bool { return cases[i].field+cases[i].value < cases[j].field+cases[j].value })
	return cases
}

// accuracyOn runs the derived cases of one project and counts right-file-first
// and top-3 hits.
func accuracyOn(t *testing.T, project string) (n, first, top3, ambiguous int) {
	t.Helper()
	idx, err := Build(context.Background(), project)
	if err != nil {
		t.Fatalf("build %s: %v", project, err)
	}
	for _, c := range accuracyCases(t, project) {
		q := Query{}
		switch c.field {
		case "text":
			q.Text = c.value
		case "cd":
			q.ContentDescription = c.value
		case "tag":
			q.TestTag = c.value
		}
		if len(c.files) > 1 {
			ambiguous++
		}
		got := idx.Match(q)
		n++
		var files []string
		for _, cand := range got {
			if len(files) == 0 || files[len(files)-1] != cand.File {
				files = append(files, cand.File)
			}
		}
		rank := -1
		for i, f := range files {
			if c.files[f] {
				rank = i
				break
			}
		}
		if rank == 0 {
			first++
		}
		if rank >= 0 && rank < 3 {
			top3++
		} else if testing.Verbose() {
			t.Logf("MISS %s %s=%q want %v got %v", filepath.Base(project), c.field, c.value, keys(c.files), head(files, 3))
		}
	}
	return n, first, top3, ambiguous
}

// TestAccuracyOnDemo runs always: the demo project's derived cases must all
// keep their right file first.
func TestAccuracyOnDemo(t *testing.T) {
	n, first, top3, _ := accuracyOn(t, filepath.Join("..", "..", "examples", "trailhead"))
	t.Logf("trailhead cases=%d first=%d top3=%d", n, first, top3)
	if n < 50 || first != n || top3 != n {
		t.Fatalf("demo accuracy: %d cases, first %d, top 3 %d; want every case first", n, first, top3)
	}
}

func TestAccuracyOnRealProjects(t *testing.T) {
	dir := os.Getenv("FIXTHIS_ACCURACY_DIR")
	if dir == "" {
		t.Skip("set FIXTHIS_ACCURACY_DIR to a folder of Android projects (e.g. compose-samples) to measure accuracy")
	}
	projects, err := filepath.Glob(filepath.Join(dir, "*", "settings.gradle*"))
	if err != nil || len(projects) == 0 {
		t.Fatalf("no Gradle projects under %s", dir)
	}
	total, first, top3, ambiguous := 0, 0, 0, 0
	for _, settings := range projects {
		project := filepath.Dir(settings)
		n, pf, p3, amb := accuracyOn(t, project)
		t.Logf("%-10s cases=%3d first=%3d top3=%3d", filepath.Base(project), n, pf, p3)
		total, first, top3, ambiguous = total+n, first+pf, top3+p3, ambiguous+amb
	}
	t.Logf("TOTAL cases=%d (%d shown by more than one file) first=%d (%.1f%%) top3=%d (%.1f%%)",
		total, ambiguous, first, 100*float64(first)/float64(total), top3, 100*float64(top3)/float64(total))
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func head(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

package source

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

const minimalAppIndex = `{"schemaVersion":"1.3","testTagConventions":["^feat_([A-Za-z]+)_.+$"],"entries":[
{"file":"src/main/java/a/Home.kt","repoFile":"app/src/main/java/a/Home.kt","line":12,"symbols":["HomeHeader"],"text":["Welcome back"],"testTags":["home_title"],
 "signals":[{"kind":"COMPOSABLE_SYMBOL","value":"HomeHeader","confidenceWeight":1.0},{"kind":"UI_TEXT","value":"Welcome back","confidenceWeight":1.0}]},
{"file":"src/main/java/a/Cart.kt","line":40,"symbols":["CartRow"],"signals":[{"kind":"COMPOSABLE_SYMBOL","value":"CartRow","confidenceWeight":1.0}],"roles":["Button"]}]}`

func TestParseAppIndex(t *testing.T) {
	tests := []struct {
		name, in string
		wantErr  string
	}{
		{"minimal", minimalAppIndex, ""},
		{"no entries", `{"schemaVersion":"1.3"}`, ""},
		{"older schema", strings.Replace(minimalAppIndex, `"1.3"`, `"1.2"`, 1), `schema "1.2", FixThis reads 1.3`},
		{"not json", "PK\x03\x04", "unreadable"},
		{"NUL in a file", `{"schemaVersion":"1.3","entries":[{"file":"a\u0000b.kt"}]}`, "no usable file"},
		{"entry without file", `{"schemaVersion":"1.3","entries":[{"line":3}]}`, "no usable file"},
		{"megabyte schema", `{"schemaVersion":"` + strings.Repeat("9", 1<<20) + `"}`, "bytes)"},
		{"over 16 MiB", `{"schemaVersion":"1.3","x":"` + strings.Repeat("a", MaxAppIndexBytes) + `"}`, "more than the 16777216"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ai, err := ParseAppIndex([]byte(tc.in))
			if tc.wantErr == "" {
				if err != nil || ai == nil {
					t.Fatalf("err %v", err)
				}
				return
			}
			if err == nil || !errors.Is(err, ErrAppIndex) || !strings.Contains(err.Error(), tc.wantErr) || len(err.Error()) > 200 {
				t.Fatalf("err %v, want one saying %q", err, tc.wantErr)
			}
		})
	}
}

// The app's index matches on its own: text and tag in one composable corroborate,
// its configured convention and the comp:<Name>:<id> one name a composable.
func TestAppIndexMatchAlone(t *testing.T) {
	ai, err := ParseAppIndex([]byte(minimalAppIndex))
	if err != nil {
		t.Fatal(err)
	}
	idx, _ := Build(context.Background(), "")
	idx.SetAppIndex(ai)
	tests := []struct {
		name string
		q    Query
		file string
		line int
		tok  string
	}{
		{"text", Query{Text: "welcome  BACK"}, "app/src/main/java/a/Home.kt", 12, TokText},
		{"tag", Query{TestTag: "home_title"}, "app/src/main/java/a/Home.kt", 12, TokTag},
		{"comp convention", Query{TestTag: "comp:CartRow:checkout"}, "src/main/java/a/Cart.kt", 40, TokCompTag},
		{"configured convention", Query{TestTag: "feat_CartRow_7"}, "src/main/java/a/Cart.kt", 40, TokCompTag},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := idx.Match(tc.q)
			if len(c) == 0 || c[0].File != tc.file || c[0].Line != tc.line || c[0].Index != FromApp || !slices.Contains(c[0].Matched, tc.tok) {
				t.Fatalf("candidates %+v", c)
			}
		})
	}
	if c := idx.Match(Query{Text: "nothing shows this"}); len(c) != 0 {
		t.Errorf("unmatched query gave %+v", c)
	}
}

// With the project folder, a location both indexes know is reported once at the
// folder's line as project+app; the app's build lines may be old.
func TestAppIndexMergesWithTheFolder(t *testing.T) {
	idx, err := Build(context.Background(), "../../examples/trailhead")
	if err != nil {
		t.Fatal(err)
	}
	q := Query{Text: "Find your next trail", TestTag: "screen_title"}
	before := idx.Match(q)
	ai := idx.ExportAppIndex(":app")
	for i := range ai.Entries {
		ai.Entries[i].Line += 3 // the installed build is older: the lines moved since
	}
	idx.SetAppIndex(ai)
	after := idx.Match(q)
	if len(before) == 0 || len(after) == 0 {
		t.Fatal("no candidates")
	}
	if after[0].File != before[0].File || after[0].Line != before[0].Line || after[0].Index != FromBoth {
		t.Errorf("best before %+v, after %+v", before[0], after[0])
	}
	for _, c := range after {
		if c.Index == FromApp && c.File == before[0].File {
			t.Errorf("a location the folder has is reported at the build's line: %+v", c)
		}
	}
}

// FuzzParseAppIndex: whatever an app's APK carries, reading it never panics, and an
// accepted index has the schema and a file on every entry.
func FuzzParseAppIndex(f *testing.F) {
	f.Add([]byte(minimalAppIndex))
	f.Add([]byte(`{"schemaVersion":"1.3","testTagConventions":["(("],"entries":[]}`))
	f.Add([]byte("\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ai, err := ParseAppIndex(b)
		if err != nil {
			return
		}
		if ai.SchemaVersion != AppIndexSchema {
			t.Fatalf("accepted schema %q", ai.SchemaVersion)
		}
		for _, e := range ai.Entries {
			if strings.TrimSpace(e.File) == "" {
				t.Fatal("accepted an entry without a file")
			}
		}
		idx, _ := Build(context.Background(), "")
		idx.SetAppIndex(ai)
		idx.Match(Query{Text: "a", TestTag: "comp:A:b", ContentDescription: "c", Role: "Button", Activity: ".Main"})
	})
}

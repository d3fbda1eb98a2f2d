package source

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// The extractors read whatever a project folder holds: half-typed Kotlin, Java,
// broken layout XML, NUL bytes. Any input gives an index whose lines are lines of
// the file, whose owners point at its own declarations, and whose values are text
// the file held (never a panic).
func FuzzExtractKotlin(f *testing.F) {
	for _, seed := range sourceSeeds(f, "*.kt", "*.java") {
		f.Add(seed, false)
	}
	f.Add([]byte("@Composable fun A() { Text(\"\"\"unterminated"), false)
	f.Add([]byte("fun B() { Text(stringResource(R.string.x)) ; Button(onClick={}) { Text(\"${a}\") } }"), false)
	f.Add([]byte("class M : AppCompatActivity() { void onCreate() { setContentView(R.layout.main); } }"), true)
	f.Add([]byte("\x00\xff@Composable fun \"\n}}}{{{\x00"), false)
	f.Fuzz(func(t *testing.T, src []byte, java bool) {
		path := "app/src/main/java/F.kt"
		if java {
			path = "app/src/main/java/F.java"
		}
		fi := &FileIndex{Path: path}
		extractKotlin(fi, src)
		checkIndex(t, fi, src)
	})
}

func FuzzExtractLayout(f *testing.F) {
	for _, seed := range sourceSeeds(f, "*.xml") {
		f.Add(seed)
	}
	f.Add([]byte(`<LinearLayout><TextView android:text="@string/x" android:id="@+id/y"/>`))
	f.Add([]byte(`<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><Button android:text="&a;"/>`))
	f.Fuzz(func(t *testing.T, src []byte) {
		fi := &FileIndex{Path: "app/src/main/res/layout/f.xml"}
		if err := extractLayout(fi, src); err != nil {
			return // refused whole: nothing indexed from it
		}
		checkIndex(t, fi, src)
	})
}

// checkIndex holds what every extractor promises of its index of src.
func checkIndex(t *testing.T, fi *FileIndex, src []byte) {
	t.Helper()
	lines := int32(bytes.Count(src, []byte("\n")) + 1)
	for _, e := range fi.Entries {
		if e.Line < 1 || e.Line > lines {
			t.Fatalf("entry %+v on line %d of %d", e, e.Line, lines)
		}
		if e.Owner < -1 || int(e.Owner) >= len(fi.Defs) {
			t.Fatalf("entry %+v owned by %d of %d defs", e, e.Owner, len(fi.Defs))
		}
		if len(e.Value) > len(src) && utf8.Valid(src) {
			t.Fatalf("entry value of %d bytes from %d bytes of source", len(e.Value), len(src))
		}
	}
	for _, d := range fi.Defs {
		if d.Line < 1 || d.Line > lines || d.EndLine < d.Line || d.EndLine > lines || d.Start < 0 || d.End < d.Start || int(d.End) > len(src) {
			t.Fatalf("def %+v in %d lines, %d bytes", d, lines, len(src))
		}
	}
	for _, c := range fi.Calls {
		if c.Line < 1 || c.Line > lines || c.Owner < -1 || int(c.Owner) >= len(fi.Defs) {
			t.Fatalf("call %+v in %d lines, %d defs", c, lines, len(fi.Defs))
		}
	}
}

// sourceSeeds are the test projects' files matching patterns, as fuzz seeds.
func sourceSeeds(f *testing.F, patterns ...string) [][]byte {
	var seeds [][]byte
	_ = filepath.WalkDir("testdata", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		for _, p := range patterns {
			if ok, _ := filepath.Match(p, d.Name()); ok {
				b, err := os.ReadFile(path)
				if err != nil {
					f.Fatal(err)
				}
				seeds = append(seeds, b)
				break
			}
		}
		return nil
	})
	if len(seeds) == 0 {
		f.Fatalf("no %v under testdata", patterns)
	}
	return seeds
}

package source

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// The cache keeps the index exactly: every file as parsed, and every lookup list
// with the same items in the same order, on projects of Compose, Views and both.
func TestSnapshotKeepsTheIndex(t *testing.T) {
	for _, dir := range []string{testProject, "testdata/views", "testdata/messy"} {
		t.Run(dir, func(t *testing.T) {
			idx := buildTest(t, dir)
			back := roundTrip(t, idx)
			if back.root != idx.root || back.reason != idx.reason || !reflect.DeepEqual(back.modules, idx.modules) {
				t.Fatalf("header: %q %q %v, want %q %q %v", back.root, back.reason, back.modules, idx.root, idx.reason, idx.modules)
			}
			if len(back.files) != len(idx.files) || len(idx.files) == 0 {
				t.Fatalf("%d files, want %d", len(back.files), len(idx.files))
			}
			for path, fi := range idx.files {
				if !reflect.DeepEqual(back.files[path], fi) {
					t.Errorf("%s after the trip:\n%+v\nwant\n%+v", path, back.files[path], fi)
				}
			}
			if got, want := lookupView(back), lookupView(idx); !reflect.DeepEqual(got, want) {
				for k, v := range want {
					if !slices.Equal(got[k], v) {
						t.Errorf("%s: %v, want %v", k, got[k], v)
					}
				}
				t.Fatalf("%d lookup lists, want %d", len(got), len(want))
			}
		})
	}
}

// lookupView spells out an index's lookup maps with files by path, so two
// indexes can be compared list by list.
func lookupView(idx *Index) map[string][]string {
	v := map[string][]string{}
	add := func(key string, ps []posting) {
		for _, p := range ps {
			v[key] = append(v[key], fmt.Sprintf("%s#%d", p.file.Path, p.n))
		}
	}
	for k, ps := range idx.byValue {
		add("value "+k, ps)
	}
	for k, ps := range idx.defs {
		add("def "+k, ps)
	}
	for k, ps := range idx.calls {
		add("call "+k, ps)
	}
	for k, ps := range idx.byKey {
		add(fmt.Sprintf("key %d %s", k.kind, k.name), ps)
	}
	for name, m := range map[string]map[string][]*FileIndex{"class": idx.classFiles, "layout": idx.layoutFiles} {
		for k, fs := range m {
			for _, fi := range fs {
				v[name+" "+k] = append(v[name+" "+k], fi.Path)
			}
		}
	}
	for _, tp := range idx.templated {
		add(fmt.Sprintf("template %q", tp.parts), []posting{tp.posting})
	}
	for k := range v {
		if k[:8] == "template" {
			slices.Sort(v[k]) // the templated list's order follows the files' map order
		}
	}
	return v
}

// A cache that is damaged anywhere is refused with an error: never a panic,
// never an index whose lists point past a file's items. Whatever is accepted
// answers a match and makes the same trip again.
func FuzzUnmarshal(f *testing.F) {
	idx, err := Build(context.Background(), testProject)
	if err != nil {
		f.Fatal(err)
	}
	data, err := idx.marshal()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add(data[:len(data)/2])
	f.Add([]byte(snapshotMagic + "\x04"))
	for _, at := range []int{5, 40, len(data) / 3, len(data) - 3} {
		bent := slices.Clone(data)
		bent[at] ^= 0x7f
		f.Add(bent)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		idx, err := unmarshal(slices.Clone(data), nil)
		if err != nil {
			return
		}
		idx.Match(Query{Text: "Save", TestTag: "profile_card", Activity: ".MainActivity"})
		again, err := idx.marshal()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := unmarshal(again, nil); err != nil {
			t.Fatalf("an accepted cache does not make the trip again: %v", err)
		}
	})
}

// Restore brings a cache up to date with the disk as Refresh does: a file edited,
// one added and one deleted while it sat in the cache are what it re-reads; a
// cache of another project is refused.
func TestRestoreCatchesUp(t *testing.T) {
	ctx := context.Background()
	root := copyProject(t)
	data, err := buildTest(t, root).marshal()
	if err != nil {
		t.Fatal(err)
	}
	edit(t, root, homeFile, `Text("Welcome back")`, `Text("Welcome home")`)
	added := "app/src/main/java/com/example/demo/Added.kt"
	if err := os.WriteFile(filepath.Join(root, added), []byte("package com.example.demo\n\n@Composable\nfun Added() { Text(\"Brand new\") }\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	gone := ""
	for rel := range buildTest(t, testProject).files {
		if rel != homeFile && strings.HasSuffix(rel, ".kt") {
			gone = rel
			break
		}
	}
	if err := os.Remove(filepath.Join(root, gone)); err != nil {
		t.Fatal(err)
	}
	idx, changed, err := Restore(ctx, data, root)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(changed)
	want := []string{added, homeFile, gone}
	slices.Sort(want)
	if !slices.Equal(changed, want) {
		t.Errorf("re-read %v, want %v", changed, want)
	}
	for _, q := range []struct {
		text, want string // want: the file that shows it
	}{{"Welcome home", homeFile}, {"Brand new", added}} {
		if c := idx.Match(Query{Text: q.text}); len(c) == 0 || c[0].File != q.want {
			t.Errorf("%q: %+v, want %s", q.text, c, q.want)
		}
	}
	for _, c := range idx.Match(Query{Text: "Welcome back"}) {
		if c.File == homeFile {
			t.Errorf("the edited-away text is still found in %s: %+v", homeFile, c)
		}
	}
	if _, _, err := Restore(ctx, data, t.TempDir()); err == nil || !strings.Contains(err.Error(), "is of "+root) {
		t.Errorf("another project's cache: %v", err)
	}
}

// WriteCache leaves only the new cache, readable by its owner alone, and takes
// away the gob cache an older FixThis kept; a command that mapped the cache
// keeps a whole index when the next is written.
func TestWriteCacheReplacesTheGobCache(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".fixthis")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	legacy := filepath.Join(dir, legacyCacheName)
	if err := os.WriteFile(legacy, []byte("an old gob"), 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "source-index.bin")
	idx := buildTest(t, testProject)
	if err := idx.WriteCache(path); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(legacy); !os.IsNotExist(err) {
		t.Errorf("the gob cache is still there: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the folder holds %d files", len(entries))
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("cache %v %v", st, err)
	}
	mapped, err := MapCache(path)
	if err != nil {
		t.Fatal(err)
	}
	// The next cache is renamed over this one: the mapped index stays whole.
	if err := buildTest(t, "testdata/views").WriteCache(path); err != nil {
		t.Fatal(err)
	}
	back, err := unmarshal(mapped, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := lookupView(back), lookupView(idx); !reflect.DeepEqual(got, want) {
		t.Error("the mapped cache changed when the next one was written")
	}
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if data, err := MapCache(path); err != nil || len(data) != 0 {
		t.Errorf("an empty cache: %d bytes, %v", len(data), err)
	}
}

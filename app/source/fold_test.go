package source

import "testing"

// Folding ASCII byte by byte, and handing back a value that is already folded,
// must agree with folding rune by rune: the value a cached index looks up has
// to be the one a query folds to.
func FuzzFoldShortcut(f *testing.F) {
	for _, s := range []string{"", " ", "  ", "save", "Save", " save ", "save  now", "a\tb", "é", " x", "x ", "\u200bx", "a\u00a0b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, edges := range []bool{false, true} {
			if s == "" {
				continue // fold answers "" before either way is asked
			}
			if got, want := fold(s, edges), foldRunes(s, edges); got != want {
				t.Fatalf("fold(%q, %v) = %q, rune by rune %q", s, edges, got, want)
			}
		}
	})
}

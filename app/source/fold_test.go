package source

import "testing"

// The shortcut that hands back an already folded value must agree with folding
// it: the value a cached index looks up has to be the one a query folds to.
func FuzzFoldShortcut(f *testing.F) {
	for _, s := range []string{"", " ", "  ", "save", "Save", " save ", "save  now", "a\tb", "é", " x", "x ", "\u200bx"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, edges := range []bool{false, true} {
			if got, ok := alreadyFolded(s, edges); ok {
				if want := slowFold(s, edges); got != want {
					t.Fatalf("alreadyFolded(%q, %v) = %q, folding gives %q", s, edges, got, want)
				}
			}
			if got, want := fold(s, edges), slowFold(s, edges); got != want {
				t.Fatalf("fold(%q, %v) = %q, want %q", s, edges, got, want)
			}
		}
	})
}

// slowFold is fold without its shortcuts: the byte loop on every ASCII value.
func slowFold(s string, edges bool) string {
	if s == "" {
		return ""
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return fold(s, edges) // the rune loop has no shortcut
		}
	}
	buf := []byte{}
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
			space = len(buf) > 0 || edges
			continue
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		if space {
			buf = append(buf, ' ')
			space = false
		}
		buf = append(buf, c)
	}
	if space && edges {
		buf = append(buf, ' ')
	}
	return string(buf)
}

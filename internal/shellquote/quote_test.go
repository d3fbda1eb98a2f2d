package shellquote

import (
	"strings"
	"testing"
)

func TestQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"com.fixthis.demo", "com.fixthis.demo"},
		{"--output-format=h264", "--output-format=h264"},
		{"main,system,crash", "main,system,crash"},
		{"", "''"},
		{"a b", "'a b'"},
		{"it's", `'it'\''s'`},
		{"''", `''\'''\'''`},
		{"$(id)", "'$(id)'"},
		{"a\nb", "'a\nb'"},
		{"héllo", "'héllo'"},
	}
	for _, tc := range tests {
		if got := Quote(tc.in); got != tc.want {
			t.Errorf("Quote(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestJoin(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"am", "start", "-n", "com.x/.Main$Inner"}, `am start -n 'com.x/.Main$Inner'`},
		{[]string{"cmd", "package", "list", ""}, `cmd package list ''`},
		{nil, ""},
	}
	for _, tc := range tests {
		if got := Join(tc.args...); got != tc.want {
			t.Errorf("Join(%q) = %s, want %s", tc.args, got, tc.want)
		}
	}
}

// unquote reads one word as the shell does for the two forms Quote writes: a plain
// word, or single-quoted runs joined by \' escapes. ok is false for anything else.
func unquote(w string) (string, bool) {
	if w != "" && !strings.ContainsAny(w, "'\\") {
		return w, strings.IndexFunc(w, func(r rune) bool { return !isPlain(r) }) < 0
	}
	var b strings.Builder
	for w != "" {
		switch {
		case strings.HasPrefix(w, `\'`):
			b.WriteByte('\'')
			w = w[2:]
		case w[0] == '\'':
			end := strings.IndexByte(w[1:], '\'')
			if end < 0 {
				return "", false
			}
			b.WriteString(w[1 : 1+end])
			w = w[2+end:]
		default:
			return "", false
		}
	}
	return b.String(), true
}

// Whatever a value holds, the shell reads Quote's word back as exactly that value.
func FuzzQuote(f *testing.F) {
	for _, s := range []string{"", "plain", "a b", "it's", "''", "$(id)", "`id`", "a\nb", "\\", "héllo", "a\x00b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q := Quote(s)
		got, ok := unquote(q)
		if !ok || got != s {
			t.Fatalf("Quote(%q) = %s, which reads back as %q (ok=%v)", s, q, got, ok)
		}
	})
}

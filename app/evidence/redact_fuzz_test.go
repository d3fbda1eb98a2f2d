package evidence

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzRedact checks what every input must keep: Redact returns, keeps the
// line count, redacts nothing further when run again, and grows a text by at
// most the markers it inserts (the shortest thing replaced, `::1`, is 3 bytes
// for the marker's 10).
func FuzzRedact(f *testing.F) {
	for _, tc := range leakLines {
		f.Add(tc.in)
	}
	for _, s := range []string{"password=[REDACTED]]", "-----BEGIN PRIVATE KEY-----\nQUJD\n", "Authorization: Bearer", "token=", `"secret":"\"`, "Cookie:", "::1 ::1", "a://b@c"} {
		f.Add(s)
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "*.txt"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil && len(b) < 16<<10 {
			f.Add(string(b))
		}
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := Redact(in)
		if strings.Count(out, "\n") != strings.Count(in, "\n") {
			t.Fatalf("line count changed:\n%q\n%q", in, out)
		}
		if again := Redact(out); again != out {
			t.Fatalf("not idempotent:\n in  %q\n out %q\n out2 %q", in, out, again)
		}
		if len(out) > 4*len(in)+len(Redacted) {
			t.Fatalf("grew from %d to %d bytes", len(in), len(out))
		}
		if utf8.ValidString(in) && !utf8.ValidString(out) {
			t.Fatalf("made invalid UTF-8 of %q: %q", in, out)
		}
	})
}

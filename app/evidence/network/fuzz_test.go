package network

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse checks what any log must keep: Parse returns, stays within its
// bounds, reads a text and its lines alike, and carries no control bytes out.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.log"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b))
		}
	}
	for _, s := range []string{
		"--> GET", "<-- 200", "<-- 200 OK (1ms)", "<-- HTTP FAILED", "--> END GET (", "<-- END HTTP (-1-byte body)",
		"REQUEST: a://b\nRESPONSE: 200\nFROM: a://b", "RESPONSE x failed with exception: y", "FROM: ://",
		"12-01 09:41:10.113  4120  4181 D a: --> GET https://x\x00",
		"1 1 1 1 1 D a: --> POST https://x\n1 1 1 1 1 D a: \n1 1 1 1 1 D a: {\"k\":1}\n1 1 1 1 1 D a: --> END POST", "D/OkHttp( 1): <-- 999 https://x (99999999999999999999ms)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		res := Parse(in)
		if len(res.Requests) > MaxRequests || res.Dropped < 0 {
			t.Fatalf("bounds: %d requests, %d dropped", len(res.Requests), res.Dropped)
		}
		if again := ParseLines(strings.Split(in, "\n")); deref(again.Requests) != deref(res.Requests) {
			t.Fatalf("Parse and ParseLines differ:\n%s\n%s", deref(res.Requests), deref(again.Requests))
		}
		for _, r := range res.Requests {
			for _, s := range []string{r.Method, r.URL, r.Error, r.ContentType, r.Time} {
				if len(s) > MaxURL+4 || strings.IndexFunc(s, func(c rune) bool { return c < ' ' || c == 0x7f }) >= 0 {
					t.Fatalf("field not clean or bounded: %q", s)
				}
				if utf8.ValidString(in) && !utf8.ValidString(s) {
					t.Fatalf("invalid UTF-8 out of valid input: %q", s)
				}
			}
			if r.Bad() != (r.Failed || r.Status >= 400) || !r.Failed && r.Status == 0 {
				t.Fatalf("a request neither answered nor failed: %+v", r)
			}
		}
		withBodies := ParseWithBodies(strings.Split(in, "\n"))
		if len(withBodies.Requests) > MaxRequests {
			t.Fatalf("bounds with bodies: %d requests", len(withBodies.Requests))
		}
		for _, r := range withBodies.Requests {
			for _, b := range []string{r.RequestBody, r.ResponseBody} {
				if len(b) > MaxBody || strings.IndexFunc(b, func(c rune) bool { return c < ' ' && c != '\n' || c == 0x7f }) >= 0 {
					t.Fatalf("body not clean or bounded: %d bytes %q", len(b), b[:min(len(b), 40)])
				}
			}
		}
	})
}

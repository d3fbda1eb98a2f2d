package jsontext

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		in        string
		surrogate bool
		at        int // -1: fine
	}{
		{`{"text":"hello"}`, false, -1},
		{`{"text":"😀 \ud83d\ude00"}`, false, -1},
		{`{"text":"\\ud800"}`, false, -1}, // an escaped backslash, then text
		{`{"text":"\u00e9"}`, false, -1},
		{`{"text":"\ud800"}`, true, 9},
		{`{"text":"\udc00"}`, true, 9},
		{`{"text":"\ud83d\u0041"}`, true, 9},
		{`{"text":"\ud83d`, true, 9},
		{"{\"text\":\"a\xffb\"}", false, 10},
		{"{\"text\":\"\xed\xa0\x80\"}", false, 9}, // a surrogate encoded as UTF-8
	} {
		err := Check([]byte(c.in))
		if c.at < 0 {
			if err != nil {
				t.Errorf("%q: %v", c.in, err)
			}
			continue
		}
		e, ok := err.(*Error)
		if !ok || e.Surrogate != c.surrogate || e.At != c.at {
			t.Errorf("%q: %#v; want surrogate=%v at %d", c.in, err, c.surrogate, c.at)
		}
	}
}

// FuzzCheck: whatever Check accepts, Go's decoder reads without putting a
// U+FFFD where the text had none.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{`"a"`, `"\ud800"`, `"\ud83d\ude00"`, "\"\xff\"", `"\\u"`, `"\u12"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if Check([]byte(s)) != nil {
			return
		}
		var v string
		if json.Unmarshal([]byte(s), &v) != nil {
			return
		}
		if !utf8.ValidString(v) || (strings.ContainsRune(v, utf8.RuneError) && !strings.Contains(s, "\uFFFD") && !strings.Contains(strings.ToLower(s), `\ufffd`)) {
			t.Fatalf("%q passed but decodes to %q", s, v)
		}
	})
}

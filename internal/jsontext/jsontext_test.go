package jsontext

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want error
	}{
		{"plain", `{"statement":"make it blue"}`, nil},
		{"a pair", `{"s":"\ud83d\ude00"}`, nil},
		{"upper-case pair", `{"s":"\uD83D\uDE00"}`, nil},
		{"escaped backslash before u", `{"s":"\\ud800"}`, nil},
		{"other escapes", `{"s":"a\"b\\c\n\u00e9"}`, nil},
		{"lone high", `{"s":"\ud800"}`, ErrLoneSurrogate},
		{"lone high at the end", `"\ud800`, ErrLoneSurrogate},
		{"high then no low", `{"s":"\ud800\u0041"}`, ErrLoneSurrogate},
		{"lone low", `{"s":"\udc00"}`, ErrLoneSurrogate},
		{"two highs", `{"s":"\ud800\ud800"}`, ErrLoneSurrogate},
		{"invalid UTF-8", "{\"s\":\"\xff\"}", ErrInvalidUTF8},
		{"an encoded surrogate", "{\"s\":\"\xed\xa0\x80\"}", ErrInvalidUTF8},
		{"short escape", `{"s":"\ud8"}`, nil},
	} {
		if got := Check([]byte(tc.in)); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
		if at := LoneSurrogate([]byte(tc.in)); (at >= 0) != (tc.want == ErrLoneSurrogate) || (at >= 0 && tc.in[at:at+2] != `\u`) {
			t.Errorf("%s: LoneSurrogate %d", tc.name, at)
		}
	}
}

// FuzzCheck: whatever Check passes decodes without a replacement
// character that was not in the text, and Check never panics.
func FuzzCheck(f *testing.F) {
	for _, seed := range []string{`{"a":"\ud83d\ude00"}`, `"\ud800"`, `"\udc00x"`, "\"\xff\"", `"\\ud800"`, `{"s":"ok"}`, `"\u00e9\ud83d"`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if Check(b) != nil {
			return
		}
		var v any
		if json.Unmarshal(b, &v) != nil {
			return
		}
		out, _ := json.Marshal(v)
		lower := strings.ToLower(string(b))
		if strings.Contains(string(out), `\ufffd`) || strings.Contains(string(out), "\uFFFD") {
			if !strings.Contains(lower, `\ufffd`) && !strings.Contains(string(b), "\uFFFD") {
				t.Fatalf("%q passed but decodes to a replacement character", b)
			}
		}
	})
}

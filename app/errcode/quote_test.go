package errcode

import (
	"strings"
	"testing"
)

func TestQuote(t *testing.T) {
	long := strings.Repeat("é", 10<<20)
	cases := []struct{ in, want string }{
		{"", `""`},
		{"emulator-5554", `"emulator-5554"`},
		{"a\nb\x00", `"a\nb\x00"`},
		{"\xff\xfe", `"\xff\xfe"`},
		{strings.Repeat("x", MaxQuote), `"` + strings.Repeat("x", MaxQuote) + `"`},
		{strings.Repeat("x", MaxQuote+1), `"` + strings.Repeat("x", MaxQuote) + `"… (41 bytes)`},
		{long, `"` + strings.Repeat("é", MaxQuote) + `"… (20971520 bytes)`},
	}
	for _, c := range cases {
		if got := Quote(c.in); got != c.want {
			t.Errorf("Quote(%.20q…) = %s, want %s", c.in, got, c.want)
		}
	}
}

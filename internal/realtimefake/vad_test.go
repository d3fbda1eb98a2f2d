package realtimefake

import "testing"

func TestVADSpans(t *testing.T) {
	cases := []struct {
		name  string
		parts [][2]float64 // {ms, dBFS}
		want  []Span
	}{
		{"silence only", [][2]float64{{2000, -300}}, nil},
		{"quiet noise below threshold", [][2]float64{{2000, -50}}, nil},
		{"one phrase", [][2]float64{{500, -300}, {800, -20}, {800, -300}}, []Span{{500, 1300}}},
		{"a short gap stays one turn", [][2]float64{{300, -300}, {400, -20}, {200, -300}, {400, -20}, {700, -300}}, []Span{{300, 1300}}},
		{"a long gap makes two", [][2]float64{{300, -300}, {400, -20}, {700, -300}, {400, -20}, {700, -300}}, []Span{{300, 700}, {1400, 1800}}},
		{"a click is not speech", [][2]float64{{300, -300}, {20, -10}, {700, -300}}, nil},
	}
	for _, tc := range cases {
		v := newVAD(-40, 500)
		var got []Span
		for _, p := range tc.parts {
			b := pcm(int(p[0]), p[1])
			// Feed in odd-sized pieces: frames must not depend on chunking.
			for len(b) > 0 {
				n := min(len(b), 2*1234)
				for _, e := range v.feed(b[:n]) {
					if !e.started {
						got = append(got, e.span)
					}
				}
				b = b[n:]
			}
		}
		if len(got) != len(tc.want) {
			t.Fatalf("%s: spans %v, want %v", tc.name, got, tc.want)
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Fatalf("%s: spans %v, want %v", tc.name, got, tc.want)
			}
		}
	}
}

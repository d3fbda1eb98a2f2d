package device

import (
	"strconv"
	"testing"
)

func TestRingKeepsNewest(t *testing.T) {
	r := NewRing(3, func(v int) string { return strconv.Itoa(v) })
	if _, ok := r.Latest(); ok {
		t.Fatal("empty ring has a latest value")
	}
	for i := 1; i <= 5; i++ {
		r.Add(i)
	}
	for _, tc := range []struct {
		id   string
		want bool
	}{{"1", false}, {"2", false}, {"3", true}, {"4", true}, {"5", true}} {
		if _, ok := r.Get(tc.id); ok != tc.want {
			t.Errorf("Get(%s) found=%v, want %v", tc.id, ok, tc.want)
		}
	}
	if v, ok := r.Latest(); !ok || v != 5 {
		t.Fatalf("Latest = %d, %v", v, ok)
	}
}

package scenario

import (
	"strings"
	"testing"
)

// The fixed search button is drawn and dumped 48 dp square (126 px at 420 dpi)
// where the unchanged demo has 36 dp (95 px); the other nodes keep their classes.
func TestApplyFixSearchButton(t *testing.T) {
	sizeOf := func(sc *Scenario) (w, h int, others map[string]string) {
		others = map[string]string{}
		for _, n := range sc.NewSession().SidekickNodes() {
			if n.TestTag == "search_button" {
				w, h = n.Bounds.Right-n.Bounds.Left, n.Bounds.Bottom-n.Bounds.Top
			} else if n.TestTag != "" {
				others[n.TestTag] = n.Class
			}
		}
		return w, h, others
	}
	demo, err := Load("demo")
	if err != nil {
		t.Fatal(err)
	}
	fixed, err := Load("demo")
	if err != nil {
		t.Fatal(err)
	}
	if err := fixed.ApplyFix("search_button"); err != nil {
		t.Fatal(err)
	}
	w0, h0, o0 := sizeOf(demo)
	w1, h1, o1 := sizeOf(fixed)
	if w0 != 95 || h0 != 95 || w1 != 126 || h1 != 126 || len(o0) != len(o1) {
		t.Fatalf("search button %d×%d → %d×%d px; tags %d → %d", w0, h0, w1, h1, len(o0), len(o1))
	}
	if err := fixed.ApplyFix("no_such_fix"); err == nil || !strings.Contains(err.Error(), "search_button") {
		t.Fatalf("unknown fix: %v", err)
	}
}

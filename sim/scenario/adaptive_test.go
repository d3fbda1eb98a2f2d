package scenario

import (
	"strings"
	"testing"
)

// The demo app is adaptive: from 600 dp wide the selected trail's detail sits
// beside the list; narrower, the list is alone. The frame and the tree both
// follow the size the display renders at.
func TestDemoListDetailFollowsWindowWidth(t *testing.T) {
	sc := loadDemo(t)
	for _, c := range []struct {
		name        string
		d           Display
		w, h        int
		detailShown bool
	}{
		{"phone (411 dp, compact)", Display{}, 1080, 2400, false},
		{"599 dp is still compact", Display{Width: 1572, Height: 2400}, 1572, 2400, false},
		{"600 dp is medium", Display{Width: 1575, Height: 2400}, 1575, 2400, true},
		{"foldable (673 dp)", Display{Width: 1767, Height: 2208}, 1767, 2208, true},
		{"tablet (1280 dp at 240 dpi)", Display{Width: 1920, Height: 1200, Density: 240}, 1920, 1200, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			se := sc.NewSession()
			se.SetDisplay(c.d)
			if b := se.Frame().Bounds(); b.Dx() != c.w || b.Dy() != c.h {
				t.Fatalf("frame %v, want %dx%d", b, c.w, c.h)
			}
			xml := string(se.UIAutomatorXML())
			if got := strings.Contains(xml, `resource-id="pane_trail_title"`); got != c.detailShown {
				t.Errorf("detail pane shown %t, want %t", got, c.detailShown)
			}
			if !strings.Contains(xml, `resource-id="trail_list"`) {
				t.Errorf("the list should always show")
			}
			var list, pane Node
			for _, n := range se.SidekickNodes() {
				switch n.TestTag {
				case "trail_list":
					list = n
				case "detail_pane":
					pane = n
				}
			}
			if c.detailShown && (pane.Bounds.Left < list.Bounds.Right || pane.Bounds.Right > c.w) {
				t.Errorf("the detail pane %+v should sit right of the list %+v", pane.Bounds, list.Bounds)
			}
			if !c.detailShown && list.Bounds.Right-list.Bounds.Left < c.w*8/10 {
				t.Errorf("compact: the list %+v should take the width", list.Bounds)
			}
		})
	}
}

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

// A tap on a card selects that trail in the side pane where the pane shows, and
// opens the detail screen where it does not, as TrailListScreen.kt's onCardClick
// does; the selection stays across a size change, as its rememberSaveable does.
func TestDemoCardTapSelectsOnWideWindows(t *testing.T) {
	sc := loadDemo(t)
	paneTitle := func(se *Session) string {
		for _, n := range se.SidekickNodes() {
			if n.TestTag == "pane_trail_title" {
				return n.Text
			}
		}
		return ""
	}
	se := sc.NewSession()
	se.SetDisplay(Display{Width: 1920, Height: 1200, Density: 240})
	if got := paneTitle(se); got != "Eagle Ridge Loop" {
		t.Fatalf("before any tap the pane shows %q, want the first trail", got)
	}
	tapNode(t, se, byTag("trail_card_1"))
	if st := se.State(); st.ScreenID != "trails" {
		t.Fatalf("a tap on a wide window opened %s", st.ScreenID)
	}
	if got := paneTitle(se); got != "Blue Lake Trail" {
		t.Fatalf("after tapping the second card the pane shows %q", got)
	}
	// Narrower and back: the list alone, then the same selection beside it.
	se.SetDisplay(Display{})
	if got := paneTitle(se); got != "" {
		t.Fatalf("a compact window shows the pane (%q)", got)
	}
	se.SetDisplay(Display{Width: 1767, Height: 2208})
	if got := paneTitle(se); got != "Blue Lake Trail" {
		t.Fatalf("the selection after a size change: %q", got)
	}

	// On a compact window the same tap opens the detail screen.
	se = sc.NewSession()
	tapNode(t, se, byTag("trail_card_1"))
	if st := se.State(); st.ScreenID != "detail" {
		t.Fatalf("a tap on a compact window stayed on %s", st.ScreenID)
	}
}

package audit

import (
	"fmt"
	"strings"

	"fixthis/capture"
)

// Touch target sizes in dp, ATF's TouchTargetSizeCheck constants: 48×48, or 32 in a
// dimension where the target touches the screen's edge.
const (
	touchTargetMin     = 48
	touchTargetMinEdge = 32
)

// imePackages are keyboards whose keys a dump that merges windows includes. ATF lets
// the keys of an input method window be 32×32 dp; a dump names no window type, so
// the keyboard is known by its package.
var imePackages = map[string]bool{
	"com.google.android.inputmethod.latin": true, // Gboard
	"com.android.inputmethod.latin":        true, // AOSP keyboard
	"com.samsung.android.honeyboard":       true, // Samsung Keyboard
	"com.touchtype.swiftkey":               true, // Microsoft SwiftKey
	"com.sohu.inputmethod.sogou":           true, // Sogou
	"com.baidu.input":                      true, // Baidu
}

// listClasses are AbsListView's family: ATF does not count a list as the clickable
// ancestor that handles a small child's taps.
var listClasses = []string{"android.widget.ListView", "android.widget.GridView", "android.widget.ExpandableListView"}

// touchTargets follows ATF's TouchTargetSizeCheck. A node is measured only when it is
// clickable or long-clickable, enabled and visible; its size is its bounds clipped by
// every ancestor, in dp rounded as ATF rounds. The minimum drops to 32 dp in a
// dimension where the node touches the screen's edge. A node touching the edge of
// its nearest scrollable ancestor along the scrolling axis is skipped, as ATF skips
// it: scrolling may have cut it, and its real size is unknown. ERROR, or WARNING
// where ATF cannot be sure the node handles its own touches: a big enough clickable
// ancestor, web content, or a node its ancestors clip.
func touchTargets(s *screen) []Finding {
	var out []Finding
	for i := range s.nodes {
		n := &s.nodes[i]
		if !s.clickable(i) || !n.Enabled || !s.visible(i) {
			continue
		}
		b := s.clipped(i)
		if empty(b) {
			continue
		}
		reqW, reqH := s.requiredTarget(i, b)
		w, h := s.dp(b.Width()), s.dp(b.Height())
		if (w >= reqW && h >= reqH) || s.againstScrollEdge(i, b) {
			continue
		}
		severity := SeverityError
		var why []string
		if s.hasClickableAncestor(i) {
			severity, why = SeverityWarning, append(why, "a clickable ancestor may handle its taps")
		}
		if s.hasAncestorClass(i, "android.webkit.WebView") {
			severity, why = SeverityWarning, append(why, "web content: check it by hand")
		}
		if b != n.Bounds && s.dp(n.Bounds.Width()) >= reqW && s.dp(n.Bounds.Height()) >= reqH {
			severity, why = SeverityWarning, append(why, "an ancestor clips it")
		}
		msg := fmt.Sprintf("Touch target %d×%d dp is smaller than %d×%d dp.", w, h, reqW, reqH)
		if len(why) > 0 {
			msg += " (" + strings.Join(why, "; ") + ")"
		}
		f := s.finding(i, CheckTouchTarget, severity,
			fmt.Sprintf("%d×%d dp", w, h), fmt.Sprintf("%d×%d dp", reqW, reqH), msg,
			"Make the target at least 48×48 dp (minimumInteractiveComponentSize, minWidth/minHeight or padding) without growing the visible icon.")
		f.Bounds = b
		out = append(out, f)
	}
	return out
}

// clipped is a node's bounds cut by the screen and by every ancestor's bounds.
func (s *screen) clipped(i int) capture.Bounds {
	b := intersect(s.nodes[i].Bounds, capture.Bounds{Right: s.width, Bottom: s.height})
	for p := s.parent[i]; p >= 0; p = s.parent[p] {
		if pb := s.nodes[p].Bounds; !empty(pb) {
			b = intersect(b, pb)
		}
	}
	return b
}

func intersect(a, b capture.Bounds) capture.Bounds {
	r := capture.Bounds{Left: max(a.Left, b.Left), Top: max(a.Top, b.Top), Right: min(a.Right, b.Right), Bottom: min(a.Bottom, b.Bottom)}
	if empty(r) {
		return capture.Bounds{}
	}
	return r
}

// requiredTarget is ATF's getMinimumAllowableSizeForView: 48×48 dp, 32 in a
// dimension against the screen's edge, 32×32 for a keyboard's keys.
func (s *screen) requiredTarget(i int, b capture.Bounds) (w, h int) {
	if imePackages[s.nodes[i].Package] {
		return touchTargetMinEdge, touchTargetMinEdge
	}
	w, h = touchTargetMin, touchTargetMin
	if b.Left <= 0 || b.Right >= s.width {
		w = touchTargetMinEdge
	}
	if b.Top <= 0 || b.Bottom >= s.height {
		h = touchTargetMinEdge
	}
	return w, h
}

// againstScrollEdge is ATF's isAgainstScrollableEdge for a dump, which does not say
// which way a container scrolls: a HorizontalScrollView, or a container the node
// fills from top to bottom, scrolls sideways; any other scrolls up and down. A node
// reaching one end of the scrolling axis may be cut there; one that spans it from
// end to end is what fills the container, not a cut item.
func (s *screen) againstScrollEdge(i int, b capture.Bounds) bool {
	for p := s.parent[i]; p >= 0; p = s.parent[p] {
		if !s.nodes[p].Scrollable {
			continue
		}
		pb := s.nodes[p].Bounds
		if strings.Contains(s.nodes[p].Class, "Horizontal") || (b.Top <= pb.Top && b.Bottom >= pb.Bottom) {
			return (b.Left <= pb.Left) != (b.Right >= pb.Right)
		}
		return (b.Top <= pb.Top) != (b.Bottom >= pb.Bottom)
	}
	return false
}

// hasClickableAncestor is ATF's hasQualifyingClickableAncestor: an ancestor with the
// same kind of click, at least the size it needs itself, and not a list. ATF compares
// the ancestor's pixels with a size in dp; this compares dp with dp, as meant.
func (s *screen) hasClickableAncestor(i int) bool {
	click, long := s.nodes[i].Clickable, s.extras[i].LongClickable
	for p := s.parent[i]; p >= 0; p = s.parent[p] {
		pn := &s.nodes[p]
		if !(pn.Clickable && click) && !(s.extras[p].LongClickable && long) {
			continue
		}
		if hasClass(pn, listClasses...) {
			continue
		}
		reqW, reqH := s.requiredTarget(p, pn.Bounds)
		if s.dp(pn.Bounds.Width()) >= reqW && s.dp(pn.Bounds.Height()) >= reqH {
			return true
		}
	}
	return false
}

func (s *screen) hasAncestorClass(i int, names ...string) bool {
	for p := s.parent[i]; p >= 0; p = s.parent[p] {
		if hasClass(&s.nodes[p], names...) {
			return true
		}
	}
	return false
}

// duplicateClickableBounds follows ATF's DuplicateClickableBoundsCheck: visible nodes
// with the same bounds and the same kind of click are one target a screen reader
// announces twice. One ERROR per group, on the first node in tree order.
func duplicateClickableBounds(s *screen) []Finding {
	type key struct {
		b           capture.Bounds
		click, long bool
	}
	var out []Finding
	for k, g := range duplicates(s, func(i int) (key, bool) {
		return key{s.nodes[i].Bounds, s.nodes[i].Clickable, s.extras[i].LongClickable}, s.visible(i) && s.clickable(i)
	}) {
		b := k.b
		out = append(out, s.finding(g[0], CheckDuplicateClickable, SeverityError,
			fmt.Sprintf("%d clickable nodes at [%d,%d][%d,%d]", len(g), b.Left, b.Top, b.Right, b.Bottom),
			"1 clickable node per area",
			fmt.Sprintf("%d other clickable node(s) have the same bounds.", len(g)-1),
			"Make only one of the nested views clickable (usually the outer one) and let it carry the label."))
	}
	return out
}

package audit

import (
	"fmt"
	"strings"
)

// Layout rules after Android Studio's visual lint (its BoundsAnalyzer,
// OverlapAnalyzer, ButtonSizeAnalyzer and TextFieldSizeAnalyzer), on the bounds the
// tree reports. All are WARNINGs: the layout may be deliberate.
const (
	maxButtonWidthDp    = 320 // Material: a button wider than this reads as a banner
	maxTextFieldWidthDp = 488 // Material: a text field wider than this is hard to scan
	overlapShare        = 0.5 // a text covered this much by a later sibling is hidden
	boundsSlackPx       = 1   // bounds widened outward to whole pixels may overhang by one
)

var buttonClasses = []string{
	"android.widget.Button", "androidx.appcompat.widget.AppCompatButton",
	"com.google.android.material.button.MaterialButton",
}

// layoutBounds flags a visible child that reaches outside its parent: what sticks
// out is clipped or drawn over its neighbours.
func layoutBounds(s *screen) []Finding {
	var out []Finding
	for i := range s.nodes {
		p := s.parent[i]
		if p < 0 || !s.visible(i) || empty(s.nodes[p].Bounds) {
			continue
		}
		b, pb := s.nodes[i].Bounds, s.nodes[p].Bounds
		var sides []string
		for _, side := range []struct {
			name string
			over int
		}{{"left", pb.Left - b.Left}, {"top", pb.Top - b.Top}, {"right", b.Right - pb.Right}, {"bottom", b.Bottom - pb.Bottom}} {
			if side.over > boundsSlackPx {
				sides = append(sides, fmt.Sprintf("%d dp past the %s", s.dp(side.over), side.name))
			}
		}
		if len(sides) == 0 {
			continue
		}
		out = append(out, s.finding(i, CheckBounds, SeverityWarning,
			strings.Join(sides, ", "), "inside its parent "+kindOf(s.nodes[p].Class),
			"This "+kindOf(s.nodes[i].Class)+" extends outside its parent ("+strings.Join(sides, ", ")+"), so part of it is cut off or overlaps its neighbours.",
			"Constrain its size to the parent (fillMaxWidth/wrap_content, or fewer fixed dp)."))
	}
	return out
}

// layoutOverlap flags a visible text covered at least half by a sibling drawn after
// it (later in the tree is on top).
func layoutOverlap(s *screen) []Finding {
	var out []Finding
	for i := range s.nodes {
		n := &s.nodes[i]
		if !s.visible(i) || strings.TrimSpace(n.Text) == "" || !hasClass(n, textClasses...) || s.parent[i] < 0 {
			continue
		}
		area := n.Bounds.Width() * n.Bounds.Height()
		for _, sib := range s.children[s.parent[i]] {
			if sib <= i || !s.visible(sib) || !s.drawsContent(sib) {
				continue
			}
			cut := intersect(n.Bounds, s.nodes[sib].Bounds)
			share := float64(cut.Width()*cut.Height()) / float64(area)
			if share < overlapShare {
				continue
			}
			f := s.finding(i, CheckOverlap, SeverityWarning,
				fmt.Sprintf("%.0f%% covered by %s %s", share*100, kindOf(s.nodes[sib].Class), s.nodes[sib].UID),
				"less than 50% covered",
				fmt.Sprintf("The text %s is %.0f%% covered by a sibling drawn over it.", quoteLabel(n.Text), share*100),
				"Move one of the two apart, or give the text room in the layout (Row/Column, constraints).")
			out = append(out, f)
			break
		}
	}
	return out
}

// drawsContent says a node paints something of its own: text, a description or an
// image. A bare container (Compose's Button role node beside its label, a ripple
// layer) covers its siblings' bounds without hiding them.
func (s *screen) drawsContent(i int) bool {
	n := &s.nodes[i]
	return strings.TrimSpace(n.Text) != "" || n.ContentDescription != "" || hasClass(n, imageClasses...)
}

// layoutWidths flags buttons wider than 320 dp and text fields wider than 488 dp.
func layoutWidths(s *screen) []Finding {
	var out []Finding
	for i := range s.nodes {
		n := &s.nodes[i]
		if !s.visible(i) {
			continue
		}
		w := s.dp(n.Bounds.Width())
		switch {
		case hasClass(n, buttonClasses...) && w > maxButtonWidthDp:
			out = append(out, s.finding(i, CheckButtonWidth, SeverityWarning,
				fmt.Sprintf("%d dp wide", w), fmt.Sprintf("at most %d dp", maxButtonWidthDp),
				fmt.Sprintf("This button is %d dp wide; past %d dp it stops reading as a button.", w, maxButtonWidthDp),
				fmt.Sprintf("Cap its width (widthIn(max = %d.dp) or a max width) or centre it with padding.", maxButtonWidthDp)))
		case n.Editable && w > maxTextFieldWidthDp:
			out = append(out, s.finding(i, CheckTextFieldWidth, SeverityWarning,
				fmt.Sprintf("%d dp wide", w), fmt.Sprintf("at most %d dp", maxTextFieldWidthDp),
				fmt.Sprintf("This text field is %d dp wide; past %d dp lines get too long to read.", w, maxTextFieldWidthDp),
				fmt.Sprintf("Cap its width (widthIn(max = %d.dp) or a max width).", maxTextFieldWidthDp)))
		}
	}
	return out
}

package audit

import (
	"fmt"

	"fixthis/capture"
)

// The dynamic checks compare the same screen under two display settings FixThis
// sets and puts back: a font scale of 2.0 (`text_scaling`), the dark theme (the
// contrast checks again) and a right-to-left language for the app (`locale_text`).
// A node is followed from one capture to the other by its identity (index path and
// class) and its text, so a screen whose structure changed under the setting only
// loses the nodes it moved, never pins a finding on a different node.
const (
	CheckTextScaling = "text_scaling"
	CheckLocaleText  = "locale_text"
	// The contrast checks as the dark theme fails them: their own ids, so an item
	// made from one is re-checked only under the dark theme, never passed on a
	// light after screen where the flaw does not show.
	CheckDarkTextContrast  = "dark_text_contrast"
	CheckDarkImageContrast = "dark_image_contrast"
)

// The settings of the dynamic pass, as Finding.Condition names them.
const (
	ConditionFontScale = "fontScale=2"
	ConditionNight     = "night"
	ConditionRTL       = "rtl"
)

// DynamicFontScale is the font scale the pass applies: Android 14's largest step,
// the one Accessibility Scanner and Android's large-font guidance test at.
const DynamicFontScale = 2.0

// growSlackPx is how much a text's box must change to count as grown or cut: one
// pixel each side absorbs rounding of bounds between two layouts.
const growSlackPx = 2

// textNode is a node whose own text a setting changes the drawing of.
func textNode(n *capture.Node) bool {
	return n.Text != "" && !n.Editable && !n.Bounds.Empty()
}

// matchTextNodes pairs the text nodes of base with the node of the same identity
// and the same text in other; unmatched ones are left out.
func matchTextNodes(base, other []capture.Node) [][2]int {
	at := make(map[string]int, len(other))
	for i := range other {
		at[other[i].UID+"|"+other[i].Class] = i
	}
	var pairs [][2]int
	for i := range base {
		n := &base[i]
		if !textNode(n) {
			continue
		}
		j, ok := at[n.UID+"|"+n.Class]
		if !ok || other[j].Text != n.Text || other[j].Bounds.Empty() {
			continue
		}
		pairs = append(pairs, [2]int{i, j})
	}
	return pairs
}

// TextScaling finds text that does not follow the font size: at font scale 2.0 its
// box neither grew (text sized in dp, or a box of fixed size that now cuts the
// glyphs) nor stayed whole (it now reaches outside its parent or the screen, or
// ends in an ellipsis it did not have). base and scaled are the same screen at the
// phone's own font scale and at DynamicFontScale, with the same density. A finding
// names the node on base, the screen the user froze and the console draws on; the
// measured value says how it looks under the setting.
func TextScaling(base, scaled Input) ([]Finding, error) {
	b, s, err := screenPair(base, scaled)
	if err != nil {
		return nil, err
	}
	var out []Finding
	for _, p := range matchTextNodes(b.nodes, s.nodes) {
		was, now := b.nodes[p[0]].Bounds, s.nodes[p[1]].Bounds
		label := quoteLabel(b.nodes[p[0]].Text)
		measured := ""
		switch {
		case now.Width() <= was.Width()+growSlackPx && now.Height() <= was.Height()+growSlackPx:
			measured = fmt.Sprintf("%s at font scale 1, %s at 2", b.dpSize(was), s.dpSize(now))
			out = append(out, b.dynamicFinding(p[0], CheckTextScaling, ConditionFontScale, measured,
				"a box that grows with the text",
				"Text "+label+" did not grow at font scale 2: its size is fixed or set in dp, so large-font users get it cut or unchanged.",
				"Size the text in sp and let its container wrap its content (no fixed height)."))
		case s.cutOut(p[1]) && !b.cutOut(p[0]):
			measured = "reaches outside its parent at font scale 2"
			out = append(out, b.dynamicFinding(p[0], CheckTextScaling, ConditionFontScale, measured,
				"the whole text inside its parent",
				"Text "+label+" no longer fits its container at font scale 2.",
				"Let the container grow with the text (wrap content, a scrollable screen) instead of a fixed size."))
		}
	}
	return out, nil
}

// LocaleText finds text a right-to-left layout cuts or covers that the
// left-to-right one did not: its box narrower than before or outside its parent, or
// overlapping another text it was clear of.
func LocaleText(base, rtl Input) ([]Finding, error) {
	b, r, err := screenPair(base, rtl)
	if err != nil {
		return nil, err
	}
	pairs := matchTextNodes(b.nodes, r.nodes)
	var out []Finding
	for k, p := range pairs {
		was, now := b.nodes[p[0]].Bounds, r.nodes[p[1]].Bounds
		label := quoteLabel(b.nodes[p[0]].Text)
		if now.Width()+growSlackPx < was.Width() || (r.cutOut(p[1]) && !b.cutOut(p[0])) {
			out = append(out, b.dynamicFinding(p[0], CheckLocaleText, ConditionRTL,
				fmt.Sprintf("%s right to left, %s left to right", r.dpSize(now), b.dpSize(was)), "the whole text, as left to right",
				"Text "+label+" is cut in a right-to-left layout.",
				"Use start/end instead of left/right for margins, gravity and constraints so the layout mirrors whole."))
			continue
		}
		for _, q := range pairs[k+1:] {
			if related(r, p[1], q[1]) || overlapArea(r.nodes[p[1]].Bounds, r.nodes[q[1]].Bounds) == 0 ||
				overlapArea(b.nodes[p[0]].Bounds, b.nodes[q[0]].Bounds) > 0 {
				continue
			}
			out = append(out, b.dynamicFinding(p[0], CheckLocaleText, ConditionRTL,
				"overlaps "+quoteLabel(r.nodes[q[1]].Text)+" right to left", "no overlap, as left to right",
				"Text "+label+" overlaps another text in a right-to-left layout.",
				"Use start/end constraints and margins so mirrored views keep their distance."))
			break
		}
	}
	return out, nil
}

// NightContrast is the contrast checks on the screen in the dark theme, less the
// flaws the light theme has too (the static audit reports those).
func NightContrast(light []Finding, night Input) ([]Finding, error) {
	found, err := Run(night)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, f := range light {
		seen[f.Key] = true
	}
	var out []Finding
	for _, f := range found {
		if (f.Check != CheckTextContrast && f.Check != CheckImageContrast) || seen[f.Key] {
			continue
		}
		if f.Check == CheckImageContrast {
			f.Check = CheckDarkImageContrast
		} else {
			f.Check = CheckDarkTextContrast
		}
		f.Condition = ConditionNight
		f.Message = "In the dark theme: " + f.Message
		f.Key += "|" + ConditionNight
		out = append(out, f)
	}
	return out, nil
}

// screenPair validates both captures of a dynamic check; each must be a screen
// Run would take.
func screenPair(base, other Input) (*screen, *screen, error) {
	b, err := newScreen(base)
	if err != nil {
		return nil, nil, err
	}
	o, err := newScreen(other)
	if err != nil {
		return nil, nil, fmt.Errorf("%w (the changed screen)", err)
	}
	return b, o, nil
}

// cutOut: node i reaches outside its parent or the screen by more than the slack.
func (s *screen) cutOut(i int) bool {
	n := s.nodes[i].Bounds
	out := func(in capture.Bounds) bool {
		return n.Left < in.Left-growSlackPx || n.Top < in.Top-growSlackPx || n.Right > in.Right+growSlackPx || n.Bottom > in.Bottom+growSlackPx
	}
	if p := s.parent[i]; p >= 0 && out(s.nodes[p].Bounds) {
		return true
	}
	return out(capture.Bounds{Right: s.width, Bottom: s.height})
}

// related: one node contains the other in the tree (a label inside its row).
func related(s *screen, a, b int) bool {
	for _, pair := range [][2]int{{a, b}, {b, a}} {
		for p := s.parent[pair[0]]; p >= 0; p = s.parent[p] {
			if p == pair[1] {
				return true
			}
		}
	}
	return false
}

func overlapArea(a, b capture.Bounds) int {
	w := min(a.Right, b.Right) - max(a.Left, b.Left)
	h := min(a.Bottom, b.Bottom) - max(a.Top, b.Top)
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h
}

func (s *screen) dpSize(b capture.Bounds) string {
	return fmt.Sprintf("%.0f×%.0f dp", float64(b.Width())/s.density, float64(b.Height())/s.density)
}

// dynamicFinding is a finding of a dynamic check: its key names the setting too, so
// it never merges with a static finding of the same node.
func (s *screen) dynamicFinding(i int, check, condition, measured, required, message, suggestion string) Finding {
	f := s.finding(i, check, SeverityWarning, measured, required, message, suggestion)
	f.Condition = condition
	f.Key += "|" + condition
	return f
}

// IsDynamic reports whether check is one only the dynamic pass runs.
func IsDynamic(check string) bool {
	switch check {
	case CheckTextScaling, CheckLocaleText, CheckDarkTextContrast, CheckDarkImageContrast:
		return true
	}
	return false
}

package scenario

import (
	"image"
	"strings"
)

// view is one concrete element of a screen: a Element instance with the session's
// state applied, desugared into layout primitives and laid out in device pixels.
// One view tree drives both the pixels and the UI tree.
type view struct {
	typ  string // widget type from the layout (button, textfield, …)
	kind string // layout primitive: col, row, box, text, icon, photo, leaf
	n    *Element
	kids []*view
	vars map[string]string // tap arguments (forEach item or screen args)

	hide int // hideNever, hideAlways, hideInViews: part of a widget's drawing

	r    image.Rectangle // laid-out bounds
	clip image.Rectangle // visible part (scroll viewports, screen)
	mw   int
	mh   int

	text    string // reported text (password dots)
	lines   []string
	scroll  int // list scroll offset
	content int // list content height/width
	focused bool
	checked bool
}

const (
	hideNever = iota
	hideAlways
	hideInViews
)

// layouter measures and places a view tree for one scenario's density and fonts.
type layouter struct {
	sc *Scenario
}

func (l *layouter) px(dp float64) int { return l.sc.Px(dp) }

func (l *layouter) pad(v *view) (int, int, int, int) {
	p := v.n.Padding
	return l.px(p.L), l.px(p.T), l.px(p.R), l.px(p.B)
}

// measure sizes v within maxW x maxH and records the result in v.mw, v.mh.
func (l *layouter) measure(v *view, maxW, maxH int) {
	pl, pt, pr, pb := l.pad(v)
	n := v.n
	w, h := -1, -1
	if n.Width.Fill {
		w = maxW
	} else if n.Width.Set {
		w = l.px(n.Width.DP)
	}
	if n.Height.Fill {
		h = maxH
	} else if n.Height.Set {
		h = l.px(n.Height.DP)
	}
	innerW, innerH := maxW-pl-pr, maxH-pt-pb
	if w >= 0 {
		innerW = w - pl - pr
	}
	if h >= 0 {
		innerH = h - pt - pb
	}
	var cw, ch int
	switch v.kind {
	case "text":
		st := l.sc.fonts.style(n.Style)
		face := l.sc.fonts.face(st, l.sc.textDPI())
		maxLines := n.MaxLines
		v.lines = wrapText(face, v.text, innerW, maxLines)
		for _, ln := range v.lines {
			cw = max(cw, measureText(face, ln))
		}
		ch = len(v.lines) * l.sc.sp(st.line)
	case "icon":
		s := l.px(orDefault(n.Size, 24))
		cw, ch = s, s
	case "col":
		cw, ch = l.measureLinear(v, innerW, innerH, true)
	case "row":
		cw, ch = l.measureLinear(v, innerW, innerH, false)
	case "box":
		for _, k := range v.kids {
			l.measure(k, innerW, innerH)
			cw, ch = max(cw, k.mw), max(ch, k.mh)
		}
	}
	if w < 0 {
		w = min(cw+pl+pr, max(maxW, 0))
	}
	if h < 0 {
		h = min(ch+pt+pb, max(maxH, 0))
		if v.typ == "list" {
			h = maxH
		}
	}
	v.mw, v.mh = max(w, 0), max(h, 0)
}

// measureLinear measures a column (vertical) or row's children: fixed ones
// first, then weighted ones share what is left, as Compose does.
func (l *layouter) measureLinear(v *view, innerW, innerH int, vertical bool) (int, int) {
	gap := l.px(v.n.Gap)
	main, cross := innerH, innerW
	if !vertical {
		main, cross = innerW, innerH
	}
	scrolls := v.typ == "list" || v.typ == "hlist"
	if scrolls {
		main = 1 << 20
	}
	used, crossMax, weights := 0, 0, 0.0
	for i, k := range v.kids {
		if i > 0 {
			used += gap
		}
		if k.n.Weight > 0 {
			weights += k.n.Weight
			continue
		}
		if vertical {
			l.measure(k, cross, max(main-used, 0))
			used += k.mh
			crossMax = max(crossMax, k.mw)
		} else {
			l.measure(k, max(main-used, 0), cross)
			used += k.mw
			crossMax = max(crossMax, k.mh)
		}
	}
	if weights > 0 {
		rest := max(main-used, 0)
		for _, k := range v.kids {
			if k.n.Weight <= 0 {
				continue
			}
			share := int(float64(rest) * k.n.Weight / weights)
			if vertical {
				l.measure(k, cross, share)
				k.mh = share
				crossMax = max(crossMax, k.mw)
			} else {
				l.measure(k, share, cross)
				k.mw = share
				crossMax = max(crossMax, k.mh)
			}
			used += share
		}
	}
	v.content = used
	if vertical {
		return crossMax, used
	}
	return used, crossMax
}

// place positions v at (x, y) with its measured size and lays out its children.
// clip is the visible area inherited from scrolling ancestors.
func (l *layouter) place(v *view, x, y int, clip image.Rectangle) {
	v.r = image.Rect(x, y, x+v.mw, y+v.mh)
	v.clip = v.r.Intersect(clip)
	pl, pt, pr, pb := l.pad(v)
	in := image.Rect(x+pl, y+pt, x+v.mw-pr, y+v.mh-pb)
	kidClip := clip
	if v.typ == "list" || v.typ == "hlist" {
		kidClip = v.clip
	}
	switch v.kind {
	case "col", "row":
		vertical := v.kind == "col"
		gap := l.px(v.n.Gap)
		total := 0
		for i, k := range v.kids {
			if i > 0 {
				total += gap
			}
			if vertical {
				total += k.mh
			} else {
				total += k.mw
			}
		}
		span := in.Dx()
		if vertical {
			span = in.Dy()
		}
		if v.typ == "list" || v.typ == "hlist" {
			v.scroll = clampInt(v.scroll, 0, max(total-span, 0))
		}
		pos, extra := 0, 0
		switch v.n.Arrange {
		case "center":
			pos = (span - total) / 2
		case "end":
			pos = span - total
		case "spaceBetween":
			if len(v.kids) > 1 {
				extra = (span - total) / (len(v.kids) - 1)
			}
		}
		pos -= v.scroll
		for _, k := range v.kids {
			if vertical {
				kx := l.sc.mirror(in.Min.X, in.Max.X, in.Min.X+alignOffset(v.n.Align, "start", in.Dx()-k.mw), k.mw)
				l.place(k, kx, in.Min.Y+pos, kidClip)
				pos += k.mh + gap + extra
			} else {
				ky := in.Min.Y + alignOffset(v.n.Align, "center", in.Dy()-k.mh)
				l.place(k, l.sc.mirror(in.Min.X, in.Max.X, in.Min.X+pos, k.mw), ky, kidClip)
				pos += k.mw + gap + extra
			}
		}
	case "box":
		for _, k := range v.kids {
			a := k.n.BoxAlign
			if a == "" {
				a = v.n.Align
			}
			h, vv := boxAlign(a)
			kx := l.sc.mirror(in.Min.X, in.Max.X, in.Min.X+alignOffset(h, "start", in.Dx()-k.mw), k.mw)
			ky := in.Min.Y + alignOffset(vv, "start", in.Dy()-k.mh)
			l.place(k, kx, ky, kidClip)
		}
	}
}

func alignOffset(a, def string, space int) int {
	if a == "" {
		a = def
	}
	switch a {
	case "center":
		return space / 2
	case "end":
		return space
	}
	return 0
}

// boxAlign splits "topStart", "center", "bottomEnd", "centerEnd", … into
// horizontal and vertical alignment.
func boxAlign(a string) (h, v string) {
	if a == "" {
		return "start", "start"
	}
	if a == "center" {
		return "center", "center"
	}
	lower := strings.ToLower(a)
	v = "center"
	switch {
	case strings.HasPrefix(lower, "top"):
		v = "start"
	case strings.HasPrefix(lower, "bottom"):
		v = "end"
	}
	h = "center"
	switch {
	case strings.HasSuffix(lower, "start"):
		h = "start"
	case strings.HasSuffix(lower, "end"):
		h = "end"
	}
	return h, v
}

func clampInt(v, lo, hi int) int {
	return max(lo, min(v, hi))
}

func orDefault(v, d float64) float64 {
	if v == 0 {
		return d
	}
	return v
}

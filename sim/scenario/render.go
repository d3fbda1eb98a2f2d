package scenario

import (
	"image"
	"image/color"
	"math"
	"strconv"
	"strings"
)

// defaultTheme is a Material 3 light scheme generated from a forest-green seed;
// scenario.json "theme" overrides entries.
var defaultTheme = map[string]string{
	"primary": "#4C662B", "onPrimary": "#FFFFFF", "primaryContainer": "#CDEDA3", "onPrimaryContainer": "#354E16",
	"secondary": "#586249", "onSecondary": "#FFFFFF", "secondaryContainer": "#DCE7C8", "onSecondaryContainer": "#404A33",
	"tertiary": "#386663", "onTertiary": "#FFFFFF", "tertiaryContainer": "#BCECE7", "onTertiaryContainer": "#1F4E4B",
	"error": "#BA1A1A", "onError": "#FFFFFF", "errorContainer": "#FFDAD6", "onErrorContainer": "#93000A",
	"surface": "#F9FAEF", "onSurface": "#1A1C16", "onSurfaceVariant": "#44483D",
	"surfaceContainerLowest": "#FFFFFF", "surfaceContainerLow": "#F3F4E9", "surfaceContainer": "#EEEFE3",
	"surfaceContainerHigh": "#E8E9DE", "surfaceContainerHighest": "#E2E3D8",
	"outline": "#75796C", "outlineVariant": "#C5C8BA", "scrim": "#000000", "inverseSurface": "#2F312A",
	"white": "#FFFFFF", "black": "#000000", "transparent": "#00000000",
}

// color resolves a theme name or hex colour into a premultiplied RGBA.
func (s *Scenario) color(name string) color.RGBA {
	if name == "" {
		return color.RGBA{}
	}
	alpha := -1.0
	if i := strings.IndexByte(name, '@'); i > 0 { // "primary@0.12": theme colour at 12% opacity
		if a, err := strconv.ParseFloat(name[i+1:], 64); err == nil {
			alpha = a
		}
		name = name[:i]
	}
	hex := name
	if v, ok := s.Theme[name]; ok {
		hex = v
	} else if v, ok := s.palette()[name]; ok {
		hex = v
	}
	c := parseHex(hex)
	if alpha >= 0 {
		c.A = uint8(math.Round(alpha * 255))
	}
	return premul(c)
}

func parseHex(h string) color.RGBA {
	h = strings.TrimPrefix(h, "#")
	v, err := strconv.ParseUint(h, 16, 32)
	if err != nil {
		return color.RGBA{255, 0, 255, 255} // loud magenta: a typo shows on screen
	}
	switch len(h) {
	case 6:
		return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 255}
	case 8:
		return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), uint8(v >> 24)}
	}
	return color.RGBA{255, 0, 255, 255}
}

// painter draws a laid-out view tree.
type painter struct {
	sc *Scenario
	// layerKey names a scrollable list's layer; nil paints lists directly.
	layerKey func(list string) string
}

func (p *painter) px(dp float64) int { return p.sc.Px(dp) }

func (p *painter) paint(root *image.RGBA, v *view) {
	if v.clip.Empty() {
		return
	}
	dst := root.SubImage(v.clip).(*image.RGBA)
	n := v.n
	radius := float32(p.px(n.Radius))
	if n.Elevation > 0 {
		l := p.sc.shadowLayer(v.r.Size(), radius, n.Elevation, p.px(1))
		composeOver(root.SubImage(v.clip.Inset(-p.px(8))).(*image.RGBA), l.Rect.Add(v.r.Min), l, l.Rect.Min)
	}
	if n.Background != "" && v.typ != "photo" && v.typ != "mark" {
		fillRRect(dst, v.r, radius, p.sc.color(n.Background))
	}
	if n.Border != "" {
		strokeRRect(dst, v.r, radius, float32(p.px(1)), p.sc.color(n.Border))
	}
	switch v.kind {
	case "text":
		p.text(dst, v)
	case "icon":
		var s shape
		drawIcon(&s, n.Icon, float32(v.r.Min.X), float32(v.r.Min.Y), float32(v.r.Dx()), n.Variant == "filled")
		s.fill(dst, p.sc.color(n.Color))
	}
	switch v.typ {
	case "photo":
		p.photo(dst, v)
	case "mark":
		p.mark(dst, v)
	case "textfield":
		if v.focused {
			strokeRRect(dst, v.r, radius, float32(p.px(2)), p.sc.color("primary"))
		}
	}
	if p.paintLayered(root, v) {
		return
	}
	for _, k := range v.kids {
		p.paint(root, k)
	}
}

func (p *painter) text(dst *image.RGBA, v *view) {
	st := p.sc.fonts.style(v.n.Style)
	face := p.sc.fonts.face(st, p.sc.textDPI())
	lh := p.sc.sp(st.line)
	c := p.sc.color(v.n.Color)
	pd := v.n.Padding
	in := image.Rect(v.r.Min.X+p.px(pd.L), v.r.Min.Y+p.px(pd.T), v.r.Max.X-p.px(pd.R), v.r.Max.Y-p.px(pd.B))
	for i, ln := range v.lines {
		w := measureText(face, ln)
		x := in.Min.X
		switch v.n.TextAlign {
		case "center":
			x += (in.Dx() - w) / 2
		case "end":
			x += in.Dx() - w
		}
		x = p.sc.mirror(in.Min.X, in.Max.X, x, w) // start is the right edge right to left
		p.sc.fonts.drawText(dst, face, ln, x, in.Min.Y+i*lh, lh, c)
		if v.focused && i == len(v.lines)-1 { // text cursor after the value
			cx := x + w + p.px(1)
			if ln == "" {
				cx = x
			}
			fillRect(dst, image.Rect(cx, in.Min.Y+i*lh+p.px(2), cx+p.px(2), in.Min.Y+(i+1)*lh-p.px(2)), p.sc.color("primary"))
		}
	}
}

// photo draws a landscape illustration (sky, sun, two mountain ridges, a lake)
// whose palette and ridge shapes depend on the variant, so every item of a list
// looks different yet deterministic.
func (p *painter) photo(dst *image.RGBA, v *view) {
	seed, _ := strconv.Atoi(v.n.Variant)
	palettes := [][5]string{
		{"#F6D9A8", "#F2B88B", "#8FA88A", "#4F6B4E", "#2F4734"},
		{"#BFE0F2", "#E6F2F8", "#94B8C9", "#5B7F94", "#34505F"},
		{"#F9C9B6", "#FBE3D3", "#C49A9A", "#87656E", "#4E3C48"},
		{"#CDE7D8", "#EEF6E9", "#9CC3A5", "#5E8B6C", "#35543F"},
		{"#D9D3F0", "#F1EEFA", "#A9A3C9", "#6E6894", "#403C5E"},
		{"#FBE7A8", "#FDF4D6", "#C7C08C", "#8C8A55", "#585632"},
		{"#E9A77B", "#2B4361", "#4E6580", "#33475F", "#1D2B3C"}, // dusk (launcher)
		{"#4D6E78", "#0E1B26", "#2A4654", "#1D3342", "#12212D"}, // night (keyguard)
	}
	pal := palettes[((seed%len(palettes))+len(palettes))%len(palettes)]
	col := func(i int) color.RGBA { return premul(parseHex(pal[i])) }
	r := v.r
	radius := float32(p.px(v.n.Radius))
	// Draw into a scratch image so the rounded corners can mask everything.
	tmp := image.NewRGBA(r)
	verticalGradient(tmp, r, col(1), col(0))
	w, h := float32(r.Dx()), float32(r.Dy())
	x0, y0 := float32(r.Min.X), float32(r.Min.Y)
	var sun shape
	sun.circle(x0+w*(0.68+0.05*float32(seed%3)), y0+h*0.3, min(w, h*1.6)*0.11)
	sun.fill(tmp, premul(color.RGBA{255, 250, 235, 220}))
	ridge := func(base, amp float32, phase float64, c color.RGBA) {
		pts := [][2]float32{{x0, y0 + h}}
		for i := 0; i <= 24; i++ {
			t := float64(i) / 24
			yy := base - amp*float32(0.55*math.Abs(math.Sin(t*math.Pi*1.6+phase))+0.45*math.Abs(math.Sin(t*math.Pi*3.3+phase*2)))
			pts = append(pts, [2]float32{x0 + w*float32(t), y0 + h*yy})
		}
		pts = append(pts, [2]float32{x0 + w, y0 + h})
		var s shape
		s.poly(pts)
		s.fill(tmp, c)
	}
	ph := float64(seed) * 0.9
	ridge(0.72, 0.42, ph, col(2))
	ridge(0.86, 0.3, ph+1.7, col(3))
	ridge(1.0, 0.16, ph+0.6, col(4))
	if radius <= 0 {
		drawOver(dst, tmp)
		return
	}
	var mask shape
	mask.rrect(x0, y0, x0+w, y0+h, radius)
	maskDraw(dst, tmp, &mask)
}

// mark draws a checkbox box or a switch track in its checked state.
func (p *painter) mark(dst *image.RGBA, v *view) {
	r := v.r
	on := v.checked
	if v.n.Type == "checkbox" {
		if on {
			fillRRect(dst, r, float32(p.px(2)), p.sc.color("primary"))
			var s shape
			drawIcon(&s, "check", float32(r.Min.X)+float32(r.Dx())*0.08, float32(r.Min.Y)+float32(r.Dy())*0.08, float32(r.Dx())*0.84, false)
			s.fill(dst, p.sc.color("onPrimary"))
			return
		}
		strokeRRect(dst, r, float32(p.px(2)), float32(p.px(2)), p.sc.color("onSurfaceVariant"))
		return
	}
	half := float32(r.Dy()) / 2
	cy := float32(r.Min.Y) + half
	if on {
		fillRRect(dst, r, half, p.sc.color("primary"))
		var s shape
		s.circle(float32(r.Max.X)-half, cy, float32(p.px(12)))
		s.fill(dst, p.sc.color("onPrimary"))
		return
	}
	fillRRect(dst, r, half, p.sc.color("surfaceContainerHighest"))
	strokeRRect(dst, r, half, float32(p.px(2)), p.sc.color("outline"))
	var s shape
	s.circle(float32(r.Min.X)+half, cy, float32(p.px(8)))
	s.fill(dst, p.sc.color("outline"))
}

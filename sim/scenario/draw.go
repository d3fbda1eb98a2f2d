package scenario

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"golang.org/x/image/vector"
)

// shape collects an anti-aliased path in absolute device coordinates. All
// sub-paths must wind the same way (the helpers below make them
// counter-clockwise in screen space) so overlapping parts add up instead of
// cancelling.
type shape struct {
	ops  []pathOp
	minX float32
	minY float32
	maxX float32
	maxY float32
}

type pathOp struct {
	kind byte // 'M', 'L', 'C', 'Z'
	pts  [3][2]float32
}

func (s *shape) grow(x, y float32) {
	if len(s.ops) == 0 && s.minX == 0 && s.maxX == 0 {
		s.minX, s.minY, s.maxX, s.maxY = x, y, x, y
	}
	s.minX, s.minY = min(s.minX, x), min(s.minY, y)
	s.maxX, s.maxY = max(s.maxX, x), max(s.maxY, y)
}

func (s *shape) moveTo(x, y float32) {
	s.grow(x, y)
	s.ops = append(s.ops, pathOp{kind: 'M', pts: [3][2]float32{{x, y}}})
}

func (s *shape) lineTo(x, y float32) {
	s.grow(x, y)
	s.ops = append(s.ops, pathOp{kind: 'L', pts: [3][2]float32{{x, y}}})
}

func (s *shape) cubeTo(ax, ay, bx, by, x, y float32) {
	s.grow(ax, ay)
	s.grow(bx, by)
	s.grow(x, y)
	s.ops = append(s.ops, pathOp{kind: 'C', pts: [3][2]float32{{ax, ay}, {bx, by}, {x, y}}})
}

func (s *shape) close() { s.ops = append(s.ops, pathOp{kind: 'Z'}) }

// kappa places cubic control points so four arcs approximate a circle.
const kappa = 0.5522847

// rrect adds a rounded rectangle, radius clamped to half the shorter side.
func (s *shape) rrect(x0, y0, x1, y1, r float32) {
	r = min(r, (x1-x0)/2, (y1-y0)/2)
	k := r * (1 - kappa)
	s.moveTo(x0+r, y0)
	s.lineTo(x1-r, y0)
	s.cubeTo(x1-k, y0, x1, y0+k, x1, y0+r)
	s.lineTo(x1, y1-r)
	s.cubeTo(x1, y1-k, x1-k, y1, x1-r, y1)
	s.lineTo(x0+r, y1)
	s.cubeTo(x0+k, y1, x0, y1-k, x0, y1-r)
	s.lineTo(x0, y0+r)
	s.cubeTo(x0, y0+k, x0+k, y0, x0+r, y0)
	s.close()
}

func (s *shape) circle(cx, cy, r float32) { s.rrect(cx-r, cy-r, cx+r, cy+r, r) }

// poly adds a closed polygon, reversing it when needed so it winds like rrect.
func (s *shape) poly(pts [][2]float32) {
	if len(pts) < 3 {
		return
	}
	var area float32
	for i := range pts {
		j := (i + 1) % len(pts)
		area += pts[i][0]*pts[j][1] - pts[j][0]*pts[i][1]
	}
	if area < 0 {
		for i, j := 0, len(pts)-1; i < j; i, j = i+1, j-1 {
			pts[i], pts[j] = pts[j], pts[i]
		}
	}
	s.moveTo(pts[0][0], pts[0][1])
	for _, p := range pts[1:] {
		s.lineTo(p[0], p[1])
	}
	s.close()
}

// stroke adds a polyline of width w with round joins and caps.
func (s *shape) stroke(w float32, pts ...[2]float32) {
	h := w / 2
	for i := 0; i+1 < len(pts); i++ {
		a, b := pts[i], pts[i+1]
		dx, dy := b[0]-a[0], b[1]-a[1]
		l := float32(math.Hypot(float64(dx), float64(dy)))
		if l == 0 {
			continue
		}
		nx, ny := -dy/l*h, dx/l*h
		s.poly([][2]float32{{a[0] + nx, a[1] + ny}, {b[0] + nx, b[1] + ny}, {b[0] - nx, b[1] - ny}, {a[0] - nx, a[1] - ny}})
	}
	for _, p := range pts {
		s.circle(p[0], p[1], h)
	}
}

// fill rasterizes the shape onto dst (clipped to dst's bounds) in colour c.
func (s *shape) fill(dst *image.RGBA, c color.RGBA) {
	if c.A == 0 {
		return
	}
	s.draw(dst, image.NewUniform(c), false)
}

// maskDraw composites src (in absolute coordinates) onto dst through mask.
func maskDraw(dst *image.RGBA, src image.Image, mask *shape) { mask.draw(dst, src, true) }

func drawOver(dst *image.RGBA, src *image.RGBA) {
	draw.Draw(dst, src.Bounds(), src, src.Bounds().Min, draw.Over)
}

func (s *shape) draw(dst *image.RGBA, src image.Image, absolute bool) {
	if len(s.ops) == 0 {
		return
	}
	x0, y0 := int(math.Floor(float64(s.minX))), int(math.Floor(float64(s.minY)))
	x1, y1 := int(math.Ceil(float64(s.maxX)))+1, int(math.Ceil(float64(s.maxY)))+1
	box := image.Rect(x0, y0, x1, y1)
	vis := box.Intersect(dst.Bounds())
	if vis.Empty() {
		return
	}
	z := vector.NewRasterizer(box.Dx(), box.Dy())
	ox, oy := float32(x0), float32(y0)
	for _, op := range s.ops {
		p := op.pts
		switch op.kind {
		case 'M':
			z.MoveTo(p[0][0]-ox, p[0][1]-oy)
		case 'L':
			z.LineTo(p[0][0]-ox, p[0][1]-oy)
		case 'C':
			z.CubeTo(p[0][0]-ox, p[0][1]-oy, p[1][0]-ox, p[1][1]-oy, p[2][0]-ox, p[2][1]-oy)
		case 'Z':
			z.ClosePath()
		}
	}
	// Rasterize into a mask covering the whole shape, then composite only the
	// visible part: the rasterizer's fast paths assume the target holds the box.
	mask := image.NewAlpha(box)
	z.Draw(mask, box, image.Opaque, image.Point{})
	sp := vis.Min
	if !absolute {
		sp = image.Point{}
	}
	draw.DrawMask(dst, vis, src, sp, mask, vis.Min, draw.Over)
}

func fillRect(dst *image.RGBA, r image.Rectangle, c color.RGBA) {
	op := draw.Over
	if c.A == 255 {
		op = draw.Src
	}
	draw.Draw(dst, r, image.NewUniform(c), image.Point{}, op)
}

// fillRRect fills a rounded rectangle; square corners take the fast path.
func fillRRect(dst *image.RGBA, r image.Rectangle, radius float32, c color.RGBA) {
	if radius <= 0 {
		fillRect(dst, r, c)
		return
	}
	var s shape
	s.rrect(float32(r.Min.X), float32(r.Min.Y), float32(r.Max.X), float32(r.Max.Y), radius)
	s.fill(dst, c)
}

// strokeRRect draws a rounded rectangle outline of width w inside r.
func strokeRRect(dst *image.RGBA, r image.Rectangle, radius, w float32, c color.RGBA) {
	// An outline is the outer rounded rect minus the inner one: draw it as a ring
	// on a scratch mask would cost more; instead fill four stroked edges and arcs
	// with the polyline helper, which keeps winding consistent.
	x0, y0, x1, y1 := float32(r.Min.X)+w/2, float32(r.Min.Y)+w/2, float32(r.Max.X)-w/2, float32(r.Max.Y)-w/2
	radius = max(min(radius-w/2, (x1-x0)/2, (y1-y0)/2), 0)
	pts := [][2]float32{}
	arc := func(cx, cy float32, a0 float64) {
		for i := 0; i <= 8; i++ {
			a := a0 + float64(i)*math.Pi/16
			pts = append(pts, [2]float32{cx + radius*float32(math.Cos(a)), cy + radius*float32(math.Sin(a))})
		}
	}
	arc(x1-radius, y0+radius, -math.Pi/2)
	arc(x1-radius, y1-radius, 0)
	arc(x0+radius, y1-radius, math.Pi/2)
	arc(x0+radius, y0+radius, math.Pi)
	pts = append(pts, pts[0])
	var s shape
	for i := 0; i+1 < len(pts); i++ {
		s.stroke(w, pts[i], pts[i+1])
	}
	s.fill(dst, c)
}

// shadow draws a soft elevation shadow below a rounded rectangle: four rounded
// rectangles of rising spread and falling opacity.
func shadow(dst *image.RGBA, r image.Rectangle, radius float32, level float64, unit int) {
	if level <= 0 {
		return
	}
	spread := float32(level) * float32(unit) * 0.7
	for i := 4; i >= 1; i-- {
		f := float32(i) / 4
		g := spread * f
		a := uint8(10 / f)
		rr := image.Rect(r.Min.X-int(g/2), r.Min.Y-int(g/4), r.Max.X+int(g/2), r.Max.Y+int(g))
		fillRRect(dst, rr, radius+g, color.RGBA{0, 0, 0, a})
	}
}

// verticalGradient fills r from colour a at the top to b at the bottom.
func verticalGradient(dst *image.RGBA, r image.Rectangle, a, b color.RGBA) {
	h := r.Dy()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		t := float64(y-r.Min.Y) / float64(max(h-1, 1))
		fillRect(dst, image.Rect(r.Min.X, y, r.Max.X, y+1), mix(a, b, t))
	}
}

func mix(a, b color.RGBA, t float64) color.RGBA {
	l := func(x, y uint8) uint8 { return uint8(float64(x) + (float64(y)-float64(x))*t + 0.5) }
	return color.RGBA{l(a.R, b.R), l(a.G, b.G), l(a.B, b.B), l(a.A, b.A)}
}

// premul turns a straight-alpha colour into the premultiplied form image/draw
// expects.
func premul(c color.RGBA) color.RGBA {
	m := func(v uint8) uint8 { return uint8(uint32(v) * uint32(c.A) / 255) }
	return color.RGBA{m(c.R), m(c.G), m(c.B), c.A}
}

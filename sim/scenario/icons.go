package scenario

import "math"

// iconPen draws one icon on a 24-unit grid (Material's icon grid) scaled to the
// icon's pixel size.
type iconPen struct {
	s       *shape
	x, y, u float32
	filled  bool
}

func (p iconPen) pt(a, b float32) [2]float32 { return [2]float32{p.x + a*p.u, p.y + b*p.u} }

func (p iconPen) line(w float32, xy ...float32) {
	pts := make([][2]float32, 0, len(xy)/2)
	for i := 0; i+1 < len(xy); i += 2 {
		pts = append(pts, p.pt(xy[i], xy[i+1]))
	}
	p.s.stroke(w*p.u, pts...)
}

func (p iconPen) disc(cx, cy, r float32) { p.s.circle(p.x+cx*p.u, p.y+cy*p.u, r*p.u) }

func (p iconPen) ring(cx, cy, r, w float32) {
	var pts []float32
	for i := 0; i <= 32; i++ {
		a := float64(i) * 2 * math.Pi / 32
		pts = append(pts, cx+r*float32(math.Cos(a)), cy+r*float32(math.Sin(a)))
	}
	p.line(w, pts...)
}

func (p iconPen) poly(xy ...float32) {
	pts := make([][2]float32, 0, len(xy)/2)
	for i := 0; i+1 < len(xy); i += 2 {
		pts = append(pts, p.pt(xy[i], xy[i+1]))
	}
	p.s.poly(pts)
}

func (p iconPen) box(x0, y0, x1, y1, r float32) {
	p.s.rrect(p.x+x0*p.u, p.y+y0*p.u, p.x+x1*p.u, p.y+y1*p.u, r*p.u)
}

// heartPts traces a heart outline on the 24 grid.
func heartPts() []float32 {
	var pts []float32
	for i := 0; i <= 40; i++ {
		t := float64(i) / 40 * 2 * math.Pi
		x := 16 * math.Pow(math.Sin(t), 3)
		y := 13*math.Cos(t) - 5*math.Cos(2*t) - 2*math.Cos(3*t) - math.Cos(4*t)
		pts = append(pts, float32(12+x*0.56), float32(12.2-y*0.56))
	}
	return pts
}

var icons = map[string]func(p iconPen){
	"back":  func(p iconPen) { p.line(2, 20, 12, 4.5, 12); p.line(2, 11, 5.5, 4.5, 12, 11, 18.5) },
	"close": func(p iconPen) { p.line(2, 6, 6, 18, 18); p.line(2, 18, 6, 6, 18) },
	"plus":  func(p iconPen) { p.line(2, 12, 5, 12, 19); p.line(2, 5, 12, 19, 12) },
	"check": func(p iconPen) { p.line(2.2, 5, 12.5, 9.5, 17, 19, 7.5) },
	"search": func(p iconPen) {
		p.ring(10, 10, 6, 2)
		p.line(2, 14.5, 14.5, 20, 20)
	},
	"heart": func(p iconPen) {
		if p.filled {
			p.poly(heartPts()...)
			return
		}
		p.line(1.9, heartPts()...)
	},
	"delete": func(p iconPen) {
		p.line(2, 4, 6.5, 20, 6.5)
		p.line(2, 9.5, 6.5, 9.5, 4, 14.5, 4, 14.5, 6.5)
		p.line(2, 6.5, 6.5, 7.5, 20, 16.5, 20, 17.5, 6.5)
		p.line(1.6, 10, 10, 10, 16.5)
		p.line(1.6, 14, 10, 14, 16.5)
	},
	"more": func(p iconPen) { p.disc(12, 5.5, 2); p.disc(12, 12, 2); p.disc(12, 18.5, 2) },
	"settings": func(p iconPen) {
		for i := 0; i < 8; i++ {
			a := float64(i) * math.Pi / 4
			c, s := float32(math.Cos(a)), float32(math.Sin(a))
			p.line(3.6, 12+c*7, 12+s*7, 12+c*9, 12+s*9)
		}
		p.ring(12, 12, 6.5, 2.2)
		p.ring(12, 12, 2.6, 2)
	},
	"person": func(p iconPen) {
		p.ring(12, 8, 3.8, 2)
		p.line(2, 4.5, 20, 4.5, 18.5, 7, 15.5, 12, 14.5, 17, 15.5, 19.5, 18.5, 19.5, 20, 4.5, 20)
	},
	"explore": func(p iconPen) {
		p.ring(12, 12, 9, 2)
		if p.filled {
			p.poly(15.5, 8.5, 13.2, 13.2, 8.5, 15.5, 10.8, 10.8)
			return
		}
		p.line(1.6, 15.5, 8.5, 13.2, 13.2, 8.5, 15.5, 10.8, 10.8, 15.5, 8.5)
	},
	"bookmark": func(p iconPen) {
		if p.filled {
			p.poly(6, 3, 18, 3, 18, 21, 12, 17, 6, 21)
			return
		}
		p.line(2, 6, 3.5, 18, 3.5, 18, 20.5, 12, 16.5, 6, 20.5, 6, 3.5)
	},
	"place": func(p iconPen) {
		var pts []float32
		for i := 0; i <= 24; i++ {
			a := math.Pi*0.8 + float64(i)/24*math.Pi*1.4
			pts = append(pts, 12+6.5*float32(math.Cos(a)), 9.5+6.5*float32(math.Sin(a)))
		}
		pts = append(pts, 12, 21.5, pts[0], pts[1])
		p.line(2, pts...)
		p.ring(12, 9.5, 2.3, 1.8)
	},
	"schedule": func(p iconPen) { p.ring(12, 12, 9, 2); p.line(2, 12, 7, 12, 12, 15.5, 14) },
	"terrain": func(p iconPen) {
		p.line(2, 2.5, 19, 9, 8, 13, 14.5, 15.5, 11, 21.5, 19, 2.5, 19)
	},
	"route": func(p iconPen) {
		p.disc(6, 19, 2.4)
		p.disc(18, 5, 2.4)
		p.line(2, 6, 19, 14, 19, 14, 12, 10, 12, 10, 5, 18, 5)
	},
	"star": func(p iconPen) {
		var pts []float32
		for i := 0; i < 10; i++ {
			r := float32(9.5)
			if i%2 == 1 {
				r = 4
			}
			a := -math.Pi/2 + float64(i)*math.Pi/5
			pts = append(pts, 12+r*float32(math.Cos(a)), 12.8+r*float32(math.Sin(a)))
		}
		if p.filled {
			p.poly(pts...)
			return
		}
		p.line(1.8, append(pts, pts[0], pts[1])...)
	},
	"lock": func(p iconPen) {
		p.line(2, 8, 11, 8, 7.5, 9.2, 4.8, 12, 3.8, 14.8, 4.8, 16, 7.5, 16, 11)
		p.box(5, 10, 19, 21, 2)
	},
	"mail": func(p iconPen) {
		p.line(2, 3, 5.5, 21, 5.5, 21, 18.5, 3, 18.5, 3, 5.5)
		p.line(2, 3.5, 6.5, 12, 12.5, 20.5, 6.5)
	},
	"visibility": func(p iconPen) {
		var pts []float32
		for i := 0; i <= 32; i++ {
			a := float64(i) / 32 * 2 * math.Pi
			pts = append(pts, 12+10*float32(math.Cos(a)), 12+6*float32(math.Sin(a)))
		}
		p.line(1.8, pts...)
		p.disc(12, 12, 3)
	},
	"edit": func(p iconPen) {
		p.line(2, 4, 20, 4, 16.5, 15.5, 5, 19, 8.5, 7.5, 20, 4, 20)
	},
	"share": func(p iconPen) {
		p.disc(18, 5, 2.6)
		p.disc(6, 12, 2.6)
		p.disc(18, 19, 2.6)
		p.line(1.8, 18, 5, 6, 12, 18, 19)
	},
	"home": func(p iconPen) {
		p.line(2, 4, 11, 12, 4, 20, 11)
		p.line(2, 6, 10, 6, 20, 18, 20, 18, 10)
	},
	"phone": func(p iconPen) {
		p.line(2, 7, 3, 17, 3, 17, 21, 7, 21, 7, 3)
		p.line(2.2, 11, 18, 13, 18)
	},
	"message": func(p iconPen) {
		p.box(3, 3.5, 21, 16.5, 3)
		p.poly(6, 15, 11, 15, 6, 21)
	},
	"camera": func(p iconPen) {
		p.line(2, 3, 7, 7.5, 7, 9.5, 4.5, 14.5, 4.5, 16.5, 7, 21, 7, 21, 19.5, 3, 19.5, 3, 7)
		p.ring(12, 13, 3.8, 2)
	},
	"globe": func(p iconPen) {
		p.ring(12, 12, 9, 2)
		p.line(1.6, 3, 12, 21, 12)
		var pts []float32
		for i := 0; i <= 16; i++ {
			a := -math.Pi/2 + float64(i)/16*2*math.Pi
			pts = append(pts, 12+4*float32(math.Cos(a)), 12+9*float32(math.Sin(a)))
		}
		p.line(1.6, pts...)
	},
	"wifi": func(p iconPen) {
		p.poly(1.5, 8.5, 12, 21.5, 22.5, 8.5, 18, 4.8, 12, 3.5, 6, 4.8)
	},
	"signal": func(p iconPen) { p.poly(2, 22, 22, 22, 22, 2) },
}

// drawIcon adds icon name at (x, y), size px, to s.
func drawIcon(s *shape, name string, x, y, size float32, filled bool) {
	f, ok := icons[name]
	if !ok {
		return
	}
	f(iconPen{s: s, x: x, y: y, u: size / 24, filled: filled})
}

package scenario

import (
	"bytes"
	"image"
	"image/color"
	"strconv"
	"strings"
	"sync"
)

// rendered is everything derived from one device state: pixels, the UI tree
// and the laid-out views used for hit testing. It is immutable once built.
type rendered struct {
	frame *image.RGBA
	xml   []byte
	nodes []Node
	// activity are the app window's own nodes, under a dialog too: what the app's
	// sidekick sees, which reads its activity's window only.
	activity []Node
	base     *view           // the screen (app, launcher or keyguard)
	dialog   *view           // dialog window over it, if any
	ime      image.Rectangle // the keyboard's keys, empty when it is hidden
	secure   bool            // the app's window was blacked out of the frame
}

// renderCache keeps rendered states by state key, evicting the oldest when
// full. Rendering is serialized: font faces are not safe for concurrent use,
// and a miss is rare next to the hits that follow it.
type renderCache struct {
	mu     sync.Mutex
	render sync.Mutex
	max    int
	m      map[string]*rendered
	order  []string
}

func newRenderCache(n int) *renderCache {
	return &renderCache{max: n, m: map[string]*rendered{}}
}

func (c *renderCache) get(key string, build func() *rendered) *rendered {
	c.mu.Lock()
	r, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		return r
	}
	c.render.Lock()
	defer c.render.Unlock()
	c.mu.Lock()
	r, ok = c.m[key]
	c.mu.Unlock()
	if ok {
		return r
	}
	r = build()
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.order) >= c.max {
		delete(c.m, c.order[0])
		c.order = c.order[1:]
	}
	c.m[key] = r
	c.order = append(c.order, key)
	return r
}

// chrome sizes of the system bars, in dp.
const (
	statusBarDP = 40
	navBarDP    = 24
)

// page is a screen to render with its state.
type page struct {
	screen *Screen
	st     *screenState
	vars   map[string]string
}

// renderState draws a device state. The base page fills the screen; a dialog is
// drawn over it with a scrim and becomes the UI tree's window, as the active window
// is all uiautomator dumps. The keyboard is a window of its own: it covers the app
// but never shows in the dump.
func (s *Scenario) renderState(spec frameSpec) *rendered {
	return s.renderStateWith(spec, s.pagePainter)
}

// renderStateWith renders with the painter painterFor gives each page.
func (s *Scenario) renderStateWith(spec frameSpec, painterFor func(pg page, rotation int) *painter) *rendered {
	W, H := s.screenSize(spec.rotation)
	statusH, navH := s.Px(statusBarDP), s.Px(navBarDP)
	full := image.Rect(0, 0, W, H)
	area := image.Rect(0, statusH, W, H-navH)
	base, dialog := spec.base, spec.dialog
	out := &rendered{frame: image.NewRGBA(full), secure: spec.secure}
	if spec.ime {
		out.ime = s.keyboardRect(full)
	}
	out.base = s.layoutPage(base, area, full, false)
	var xml bytes.Buffer
	if dialog != nil {
		out.dialog = s.layoutPage(*dialog, area.Inset(s.Px(24)), full, true)
		writeXML(&xml, s.window(*dialog, out.dialog, out.dialog.r, false), spec.rotation)
	} else {
		writeXML(&xml, s.window(base, out.base, full, true), spec.rotation)
	}
	out.xml = xml.Bytes()
	top := base
	win := out.base
	if dialog != nil {
		top, win = *dialog, out.dialog
	}
	tb := s.treeBuilder(top.screen)
	out.nodes = semNodes(tb.nodes(win))
	out.activity = out.nodes
	if dialog != nil {
		out.activity = semNodes(s.treeBuilder(base.screen).nodes(out.base))
	}
	if !spec.screenOn {
		fillRect(out.frame, full, color.RGBA{0, 0, 0, 255})
		return out
	}
	p := painterFor(base, spec.rotation)
	bg := orStr(base.screen.Background, "surface")
	if v, ok := strings.CutPrefix(bg, "wallpaper:"); ok {
		wall := &view{typ: "photo", r: full, clip: full, n: &Element{Variant: v}}
		p.photo(out.frame, wall)
	} else {
		fillRect(out.frame, full, s.color(bg))
	}
	p.paint(out.frame, out.base)
	dark := base.screen.StatusBarDark
	if spec.secure {
		// Screenshots get a secure layer as black; the system bars are other
		// windows and still show, in light icons over the black.
		fillRect(out.frame, full, color.RGBA{0, 0, 0, 255})
		dark = true
	}
	s.drawStatusBar(out.frame, dark)
	s.drawNavHandle(out.frame, dark)
	if dialog != nil {
		fillRect(out.frame, full, color.RGBA{0, 0, 0, 82})
		painterFor(*dialog, spec.rotation).paint(out.frame, out.dialog)
	}
	if spec.ime {
		s.drawKeyboard(out.frame, out.ime, full)
	}
	return out
}

// screenSize is the display in the given rotation: odd quarter turns swap it.
func (s *Scenario) screenSize(rotation int) (int, int) {
	if rotation%2 == 1 {
		return s.Device.Height, s.Device.Width
	}
	return s.Device.Width, s.Device.Height
}

// layoutPage builds and lays out a page within area; a dialog is sized to its
// content and centred.
func (s *Scenario) layoutPage(pg page, area, screen image.Rectangle, centred bool) *view {
	b := &builder{sc: s, st: pg.st, widthDp: float64(area.Dx()) * 160 / float64(s.Device.Density)}
	root := b.build(pg.screen.Layout, pg.vars)[0]
	l := &layouter{sc: s}
	maxW := area.Dx()
	if centred {
		maxW = min(maxW, s.Px(560))
	}
	l.measure(root, maxW, area.Dy())
	x, y := area.Min.X, area.Min.Y
	if centred {
		x += (area.Dx() - root.mw) / 2
		y += (area.Dy() - root.mh) / 2
	}
	l.place(root, x, y, screen)
	return root
}

func (s *Scenario) treeBuilder(sc *Screen) *treeBuilder {
	pkg := orStr(sc.Package, s.App.Package)
	return &treeBuilder{pkg: pkg, style: sc.Style, idPkg: pkg, asTags: sc.TestTagsAsResourceID, minTouch: s.Px(48)}
}

// window wraps a page's nodes in the decor views Android puts around an
// activity (or dialog) window, as a real dump shows them.
func (s *Scenario) window(pg page, root *view, r image.Rectangle, bars bool) []*uiNode {
	tb := s.treeBuilder(pg.screen)
	content := tb.nodes(root)
	frame := func(class, id string, kids ...*uiNode) *uiNode {
		return &uiNode{class: class, resID: id, pkg: tb.pkg, enabled: true, bounds: r, kids: kids}
	}
	if tb.style == "compose" {
		content = []*uiNode{frame("androidx.compose.ui.platform.ComposeView", "", frame("android.view.View", "", content...))}
	}
	contentFrame := frame("android.widget.FrameLayout", "android:id/content", content...)
	if !bars {
		return []*uiNode{frame("android.widget.FrameLayout", "", contentFrame)}
	}
	W, H := r.Dx(), r.Dy()
	decor := frame("android.widget.FrameLayout", "", frame("android.widget.LinearLayout", "", contentFrame))
	decor.kids = append(decor.kids,
		&uiNode{class: "android.view.View", resID: "android:id/statusBarBackground", pkg: tb.pkg, enabled: true, bounds: image.Rect(0, 0, W, s.Px(statusBarDP))},
		&uiNode{class: "android.view.View", resID: "android:id/navigationBarBackground", pkg: tb.pkg, enabled: true, bounds: image.Rect(0, H-s.Px(navBarDP), W, H)},
	)
	return []*uiNode{decor}
}

// drawStatusBar draws the clock, signal, Wi-Fi and battery over the window.
func (s *Scenario) drawStatusBar(dst *image.RGBA, dark bool) {
	fg := s.color("onSurface")
	if dark {
		fg = s.color("white")
	}
	h := s.Px(statusBarDP)
	st := s.fonts.style("statusBar")
	face := s.fonts.face(st, s.textDPI())
	s.fonts.drawText(dst, face, s.StatusTime, s.Px(24), 0, h, fg)
	// Right side, from the edge inwards: battery, percentage, Wi-Fi, signal.
	x := dst.Bounds().Dx() - s.Px(24)
	bw, bh := s.Px(22), s.Px(11)
	by := (h - bh) / 2
	body := image.Rect(x-bw, by, x, by+bh)
	strokeRRect(dst, body, float32(s.Px(3)), float32(s.Px(1.4)), fg)
	fillRRect(dst, image.Rect(x+s.Px(1), by+bh/3, x+s.Px(2.5), by+bh*2/3), 1, fg)
	level := body.Inset(s.Px(2.4))
	level.Max.X = level.Min.X + level.Dx()*s.Battery/100
	fillRRect(dst, level, float32(s.Px(1)), fg)
	x -= bw + s.Px(6)
	pct := strconv.Itoa(s.Battery) + "%"
	x -= measureText(face, pct)
	s.fonts.drawText(dst, face, pct, x, 0, h, fg)
	icon := float32(s.Px(17))
	for _, name := range []string{"wifi", "signal"} {
		x -= s.Px(6) + int(icon)
		var sh shape
		drawIcon(&sh, name, float32(x), float32(h)/2-icon/2, icon, true)
		sh.fill(dst, fg)
	}
}

// drawNavHandle draws the gesture navigation handle.
func (s *Scenario) drawNavHandle(dst *image.RGBA, dark bool) {
	c := s.color("onSurface")
	if dark {
		c = s.color("white")
	}
	w, h := s.Px(108), s.Px(4)
	W, H := dst.Bounds().Dx(), dst.Bounds().Dy()
	cy := H - s.Px(navBarDP)/2
	r := image.Rect((W-w)/2, cy-h/2, (W+w)/2, cy+h/2)
	fillRRect(dst, r, float32(h)/2, c)
}

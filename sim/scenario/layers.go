package scenario

import (
	"fmt"
	"image"
	"sync"
)

// A list that can scroll is drawn from a layer: its content is painted once, in the
// list's own coordinates, into tiles, and every frame copies the visible part onto
// the screen. A scroll step then costs a copy instead of repainting every card, as a
// phone's compositor reuses a list's layer while it scrolls, so the simulated phone
// renders a moving list at display rate (screenrecord sees every step). Because the
// content is always painted at the same local coordinates, a state's pixels do not
// depend on the scroll offset it was reached from.

// layerTileRows is the height (or width, in a horizontal list) of one tile.
const layerTileRows = 512

// maxLayerTiles bounds the tile cache: 48 tiles of a 1080-px list are about 100 MB.
const maxLayerTiles = 48

type layerCache struct {
	mu    sync.Mutex
	tiles map[string]*image.RGBA
	order []string
}

func newLayerCache() *layerCache { return &layerCache{tiles: map[string]*image.RGBA{}} }

func (c *layerCache) get(key string, build func() *image.RGBA) *image.RGBA {
	c.mu.Lock()
	t, ok := c.tiles[key]
	c.mu.Unlock()
	if ok {
		return t
	}
	t = build()
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.tiles[key]; !ok {
		if len(c.order) >= maxLayerTiles {
			delete(c.tiles, c.order[0])
			c.order = c.order[1:]
		}
		c.order = append(c.order, key)
	}
	c.tiles[key] = t
	return t
}

// pagePainter paints one page (the screen or a dialog) with layers for its lists.
// A layer's key is the page's state without that list's own scroll offset.
func (s *Scenario) pagePainter(pg page, rotation int) *painter {
	return &painter{sc: s, layerKey: func(list string) string {
		st := pg.st.clone()
		delete(st.scrolls, list)
		return fmt.Sprintf("%p rot=%d vars=%v %s list=%q", pg.screen, rotation, pg.vars, st.key(), list)
	}}
}

// paintLayered draws a scrollable list's children from its layer and reports true,
// or reports false when the list is drawn directly: its content fits (nothing
// scrolls) or its arrangement spreads the children by the viewport's size.
func (p *painter) paintLayered(root *image.RGBA, v *view) bool {
	if p.layerKey == nil || (v.typ != "list" && v.typ != "hlist") {
		return false
	}
	vertical := v.typ == "list"
	pl, pt, pr, pb := (&layouter{sc: p.sc}).pad(v)
	in := image.Rect(v.r.Min.X+pl, v.r.Min.Y+pt, v.r.Max.X-pr, v.r.Max.Y-pb)
	span := in.Dx()
	if vertical {
		span = in.Dy()
	}
	if v.content <= span || (v.n.Arrange != "" && v.n.Arrange != "start") {
		return false
	}
	// The content in local coordinates: the inner top-left is (0, 0) at scroll 0.
	bounds := image.Rect(-pl, -pt, v.mw-pl, v.content+pb)
	if !vertical {
		bounds = image.Rect(-pl, -pt, v.content+pr, v.mh-pt)
	}
	// The children are laid out at those coordinates only when a tile is missing: a
	// scroll step over cached tiles is a copy and nothing more.
	var local *view
	laidOut := func() *view {
		if local == nil {
			local = cloneView(v)
			local.scroll = 0
			local.mw, local.mh = bounds.Dx(), bounds.Dy()
			(&layouter{sc: p.sc}).place(local, -pl, -pt, image.Rect(-1<<24, -1<<24, 1<<24, 1<<24))
		}
		return local
	}
	origin := in.Min.Sub(image.Pt(0, v.scroll))
	if !vertical {
		origin = in.Min.Sub(image.Pt(v.scroll, 0))
	}
	visible := v.clip.Sub(origin).Intersect(bounds)
	if visible.Empty() {
		return true
	}
	key := p.layerKey(v.n.key())
	lo, hi := visible.Min.Y, visible.Max.Y
	if !vertical {
		lo, hi = visible.Min.X, visible.Max.X
	}
	for k := floorDiv(lo, layerTileRows); k*layerTileRows < hi; k++ {
		rect := image.Rect(bounds.Min.X, k*layerTileRows, bounds.Max.X, (k+1)*layerTileRows)
		if !vertical {
			rect = image.Rect(k*layerTileRows, bounds.Min.Y, (k+1)*layerTileRows, bounds.Max.Y)
		}
		tile := p.sc.layers.get(fmt.Sprintf("%s tile=%v", key, rect), func() *image.RGBA { return p.paintTile(laidOut(), rect) })
		part := rect.Intersect(visible)
		composeOver(root, part.Add(origin), tile, part.Min)
	}
	return true
}

// paintTile paints the list's children that reach into rect. Lists nested inside are
// painted directly: their offsets are part of the layer's key.
func (p *painter) paintTile(list *view, rect image.Rectangle) *image.RGBA {
	tile := image.NewRGBA(rect)
	direct := &painter{sc: p.sc}
	margin := p.px(8) // elevation shadows reach this far outside a view
	for _, k := range list.kids {
		if k.clip.Inset(-margin).Overlaps(rect) {
			direct.paint(tile, k)
		}
	}
	return tile
}

// cloneView copies a view subtree so it can be laid out again without touching the
// original, which hit testing and the UI tree use.
func cloneView(v *view) *view {
	c := *v
	c.kids = make([]*view, len(v.kids))
	for i, k := range v.kids {
		c.kids[i] = cloneView(k)
	}
	return &c
}

// composeOver draws src (premultiplied) over dst in r with image/draw's Over
// arithmetic; fully transparent and fully opaque pixels, most of a list, take the
// short way, which makes it several times faster than draw.Draw.
func composeOver(dst *image.RGBA, r image.Rectangle, src *image.RGBA, sp image.Point) {
	clipped := r.Intersect(dst.Bounds())
	if clipped.Empty() {
		return
	}
	sp = sp.Add(clipped.Min.Sub(r.Min))
	r = clipped
	const m = 1<<16 - 1
	n := r.Dx() * 4
	for y := 0; y < r.Dy(); y++ {
		d := dst.Pix[dst.PixOffset(r.Min.X, r.Min.Y+y):][:n:n]
		s := src.Pix[src.PixOffset(sp.X, sp.Y+y):][:n:n]
		for i := 0; i < n; {
			switch s[i+3] {
			case 0:
				for i += 4; i < n && s[i+3] == 0; i += 4 {
				}
			case 255:
				j := i + 4
				for j < n && s[j+3] == 255 {
					j += 4
				}
				copy(d[i:j], s[i:j])
				i = j
			default:
				a := (m - uint32(s[i+3])*0x101) * 0x101
				for c := i; c < i+4; c++ {
					d[c] = uint8((uint32(d[c])*a/m + uint32(s[c])*0x101) >> 8)
				}
				i += 4
			}
		}
	}
}

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// maxShadowLayers bounds the shadow cache; past it, layers are built but not kept.
const maxShadowLayers = 256

// shadowLayer is the elevation shadow of a size-sized rounded rectangle painted once
// over transparency, relative to the rectangle's top-left corner: drawing it costs a
// composition instead of rasterizing four rounded rectangles on every frame.
func (s *Scenario) shadowLayer(size image.Point, radius float32, level float64, unit int) *image.RGBA {
	key := fmt.Sprintf("%v %g %g %d", size, radius, level, unit)
	s.shadowMu.Lock()
	l, ok := s.shadows[key]
	s.shadowMu.Unlock()
	if ok {
		return l
	}
	r := image.Rectangle{Max: size}
	spread := int(float32(level)*float32(unit)*0.7) + 1
	l = image.NewRGBA(r.Inset(-spread))
	shadow(l, r, radius, level, unit)
	s.shadowMu.Lock()
	if len(s.shadows) < maxShadowLayers {
		s.shadows[key] = l
	}
	s.shadowMu.Unlock()
	return l
}

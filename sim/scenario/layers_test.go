package scenario

import (
	"bytes"
	"image"
	"image/draw"
	"testing"
)

// setScroll moves the top screen's list as a swipe that ended there would.
func setScroll(se *Session, list string, y int) {
	se.mu.Lock()
	se.stack[len(se.stack)-1].st.scrolls[list] = y
	se.version++
	se.mu.Unlock()
}

// paintDirect renders the session's state with every list painted directly, the way
// the renderer drew before lists had layers.
func paintDirect(se *Session) *image.RGBA {
	se.mu.Lock()
	_, spec := se.snapshotLocked()
	se.mu.Unlock()
	out := se.sc.renderStateWith(spec, func(page, int) *painter { return &painter{sc: se.sc} })
	return out.frame
}

func TestLayeredListLooksLikeDirectPainting(t *testing.T) {
	sc := loadDemo(t)
	se := sc.NewSession()
	for _, y := range []int{0, 1, 37, 512, 1000, 100000} {
		setScroll(se, "trail_list", y)
		got, want := se.Frame(), paintDirect(se)
		if !got.Bounds().Eq(want.Bounds()) {
			t.Fatalf("scroll %d: bounds %v, want %v", y, got.Bounds(), want.Bounds())
		}
		// Composing the layer rounds once more than painting in place, and the cards'
		// shadows stop at the list's edges (a phone clips a list's children too):
		// a level or two at edges, nothing like a misplaced card.
		worst := 0
		for i := range got.Pix {
			d := int(got.Pix[i]) - int(want.Pix[i])
			worst = max(worst, d, -d)
		}
		if worst > 4 {
			t.Errorf("scroll %d: a channel differs by %d from painting the list directly", y, worst)
		}
	}
}

func TestListPixelsDoNotDependOnThePathToAScroll(t *testing.T) {
	// One session passes through other offsets first, filling the tile cache from
	// them; a fresh scenario has no tiles and paints every tile it shows anew.
	travelled := loadDemo(t).NewSession()
	for _, y := range []int{0, 30, 60, 90, 700, 1200} {
		setScroll(travelled, "trail_list", y)
		travelled.Frame()
	}
	fresh := loadDemo(t).NewSession()
	setScroll(fresh, "trail_list", 1200)
	if !bytes.Equal(travelled.Frame().Pix, fresh.Frame().Pix) {
		t.Fatal("the same scroll offset renders different pixels depending on the offsets rendered before")
	}
}

func TestScrollingMovesTheListsPixels(t *testing.T) {
	se := loadDemo(t).NewSession()
	before := bytes.Clone(se.Frame().Pix)
	setScroll(se, "trail_list", 300)
	if bytes.Equal(before, se.Frame().Pix) {
		t.Fatal("the frame did not change when the trail list scrolled")
	}
}

func TestComposeOverMatchesImageDraw(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 64, 8))
	for i := range src.Pix {
		src.Pix[i] = byte(i * 37)
	}
	for i := 3; i < len(src.Pix); i += 4 { // opaque, clear and partial runs
		switch a := i / 4 % 7; {
		case a < 2:
			src.Pix[i] = 255
		case a < 4:
			src.Pix[i-3], src.Pix[i-2], src.Pix[i-1], src.Pix[i] = 0, 0, 0, 0
		default:
			src.Pix[i] = byte(40 * a)
			for c := i - 3; c < i; c++ {
				src.Pix[c] = min(src.Pix[c], src.Pix[i]) // premultiplied
			}
		}
	}
	base := image.NewRGBA(image.Rect(0, 0, 70, 10))
	for i := range base.Pix {
		base.Pix[i] = byte(i * 11)
	}
	got, want := image.NewRGBA(base.Rect), image.NewRGBA(base.Rect)
	copy(got.Pix, base.Pix)
	copy(want.Pix, base.Pix)
	r := image.Rect(3, 1, 67, 9)
	composeOver(got, r, src, image.Point{})
	draw.Draw(want, r, src, image.Point{}, draw.Over)
	if !bytes.Equal(got.Pix, want.Pix) {
		t.Fatal("composeOver differs from draw.Draw with draw.Over")
	}
	// Clipped by the destination's bounds, the source moves along.
	sub := got.SubImage(image.Rect(10, 2, 40, 6)).(*image.RGBA)
	subWant := want.SubImage(sub.Rect).(*image.RGBA)
	composeOver(sub, r, src, image.Point{})
	draw.Draw(subWant, r, src, image.Point{}, draw.Over)
	if !bytes.Equal(got.Pix, want.Pix) {
		t.Fatal("composeOver into a clipped destination differs from draw.Draw")
	}
}

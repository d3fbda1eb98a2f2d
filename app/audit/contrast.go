package audit

import (
	"fmt"
	"image"
	"image/draw"
	"iter"
	"math"
)

// Contrast thresholds of WCAG 2 as ATF's ContrastUtils states them.
const (
	contrastNormalText = 4.5 // CONTRAST_RATIO_WCAG_NORMAL_TEXT
	contrastLargeText  = 3.0 // CONTRAST_RATIO_WCAG_LARGE_TEXT, also the image threshold
	// contrastTolerance is how far below a threshold a ratio must fall to count
	// (ATF's CONTRAST_TOLERANCE), so 4.49 passes 4.5.
	contrastTolerance = 0.01
)

// pixelReader counts the colours of the screenshot.
type pixelReader interface {
	// histogram sets counts to how many pixels of each opaque RGB colour (0xRRGGBB)
	// lie in r.
	histogram(r image.Rectangle, counts *colorCounts)
}

type nrgbaReader struct{ img *image.NRGBA }

// newPixelReader keeps an NRGBA (what capture decodes into) as it is and converts
// anything else once, so the histogram loop reads bytes, not interfaces.
func newPixelReader(img image.Image) pixelReader {
	n, ok := img.(*image.NRGBA)
	if !ok || n.Rect.Min != (image.Point{}) {
		b := img.Bounds()
		n = image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
		draw.Draw(n, n.Rect, img, b.Min, draw.Src)
	}
	return nrgbaReader{n}
}

// histogram counts runs of one colour before touching the table: screens are mostly
// flat fills, so a row costs a few updates instead of one per pixel.
func (p nrgbaReader) histogram(r image.Rectangle, counts *colorCounts) {
	counts.reset()
	r = r.Intersect(p.img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := p.img.Pix[p.img.PixOffset(r.Min.X, y):p.img.PixOffset(r.Max.X, y)]
		var prev uint32
		run := 0
		for i := 0; i+3 < len(row); i += 4 {
			c := uint32(row[i])<<16 | uint32(row[i+1])<<8 | uint32(row[i+2])
			if c == prev && run > 0 {
				run++
				continue
			}
			if run > 0 {
				counts.add(prev, run)
			}
			prev, run = c, 1
		}
		if run > 0 {
			counts.add(prev, run)
		}
	}
}

// swatch is the background and main foreground colour of a patch of pixels, found
// as ATF's ContrastSwatch does in its default (single foreground) mode: a histogram
// of exact colours (counted in a table where ATF sorts the pixels: the same
// counts, without the sort); the average luminance of the distinct colours splits them into
// dark and light; the most frequent colour of each side is a candidate, and the side
// whose candidate is more frequent is the background.
type swatch struct {
	background, foreground uint32
}

func newSwatch(counts *colorCounts) swatch {
	if counts.len() < 2 {
		var sw swatch
		counts.each(func(c uint32, _ int) { sw = swatch{c, c} })
		return sw
	}
	var sum float64
	counts.each(func(c uint32, _ int) { sum += luminance(c) })
	avg := sum / float64(counts.len())
	var low, high uint32
	lowN, highN := 0, 0
	counts.each(func(c uint32, n int) {
		// Ties go to the smaller colour so the result never depends on table order.
		if l := luminance(c); l < avg {
			if n > lowN || (n == lowN && c < low) {
				low, lowN = c, n
			}
		} else if n > highN || (n == highN && c < high) {
			high, highN = c, n
		}
	})
	if highN > lowN {
		return swatch{background: high, foreground: low}
	}
	return swatch{background: low, foreground: high}
}

// ratio is the contrast ratio, rounded to two decimals as ContrastSwatch rounds it.
func (s swatch) ratio() float64 {
	return math.Round(contrastRatio(luminance(s.background), luminance(s.foreground))*100) / 100
}

// luminance is the relative luminance of an sRGB colour (ContrastUtils.calculateLuminance).
func luminance(c uint32) float64 {
	return 0.2126*linearRGB[c>>16&0xff] + 0.7152*linearRGB[c>>8&0xff] + 0.0722*linearRGB[c&0xff]
}

// linearRGB maps an sRGB channel to linear light; a table, since a photo holds
// thousands of distinct colours and math.Pow per channel was most of the audit's time.
var linearRGB = func() (t [256]float64) {
	for v := range t {
		s := float64(v) / 255
		if s <= 0.03928 {
			t[v] = s / 12.92
		} else {
			t[v] = math.Pow((s+0.055)/1.055, 2.4)
		}
	}
	return t
}()

func contrastRatio(l1, l2 float64) float64 {
	return (max(l1, l2) + 0.05) / (min(l1, l2) + 0.05)
}

// textClasses are the TextView family as a dump names it; ATF's TextContrastCheck
// runs on instances of TextView (Compose's Text is reported as one too).
var textClasses = []string{
	"android.widget.TextView", "android.widget.Button", "android.widget.EditText",
	"android.widget.CheckBox", "android.widget.RadioButton", "android.widget.CheckedTextView",
	"android.widget.AutoCompleteTextView", "androidx.appcompat.widget.AppCompatTextView",
	"androidx.appcompat.widget.AppCompatButton", "com.google.android.material.button.MaterialButton",
	"com.google.android.material.textview.MaterialTextView",
}

// imageClasses are the ImageView family (ImageButton extends ImageView), which ATF's
// ImageContrastCheck runs on.
var imageClasses = []string{
	"android.widget.ImageView", "android.widget.ImageButton",
	"androidx.appcompat.widget.AppCompatImageView", "androidx.appcompat.widget.AppCompatImageButton",
	"com.google.android.material.imageview.ShapeableImageView",
	"com.google.android.material.floatingactionbutton.FloatingActionButton",
}

// textContrast follows ATF's TextContrastCheck heavyweight path: a dump carries no
// text size, so the check grades as ATF does when the size is unknown — under 3.0:1
// fails for text of any size; 3.0 to 4.5:1 is borderline (it fails only for text
// under 18 sp, or 14 sp bold).
func textContrast(s *screen) []Finding {
	var out []Finding
	noText := func(i int) bool { return s.nodes[i].Text == "" && !s.extras[i].HasText && s.extras[i].Hint == "" }
	for i, sw := range s.swatches(textClasses, noText) {
		r := sw.ratio()
		measured := sw.measured(r)
		switch {
		case contrastLargeText-r > contrastTolerance:
			out = append(out, s.finding(i, CheckTextContrast, SeverityWarning, measured,
				"3.00:1 for any text (4.50:1 under 18 sp)",
				"Text contrast "+fmt.Sprintf("%.2f:1", r)+" is too low for text of any size.",
				"Darken the text or lighten its background until the ratio reaches 4.5:1."))
		case contrastNormalText-r > contrastTolerance:
			out = append(out, s.finding(i, CheckTextContrast, SeverityWarning, measured,
				"4.50:1 for text under 18 sp (14 sp bold), 3.00:1 above",
				"Text contrast "+fmt.Sprintf("%.2f:1", r)+" is borderline: enough only for large text.",
				"Unless the text is at least 18 sp (14 sp bold), raise the contrast to 4.5:1."))
		}
	}
	return out
}

// imageContrast follows ATF's ImageContrastCheck: an image's main colours need 3.0:1,
// reported as a warning since the heuristic is less sure on pictures.
func imageContrast(s *screen) []Finding {
	var out []Finding
	for i, sw := range s.swatches(imageClasses, nil) {
		if r := sw.ratio(); contrastLargeText-r > contrastTolerance {
			out = append(out, s.finding(i, CheckImageContrast, SeverityWarning, sw.measured(r),
				"3.00:1",
				fmt.Sprintf("Image contrast %.2f:1 is too low to make out its shape.", r),
				"Give the icon a colour that stands out from its background by 3:1 or more."))
		}
	}
	return out
}

// swatches yields, with its swatch, each visible and enabled node of one of classes
// whose pixels can be measured (none without a screenshot). skip, when given, passes
// over a node before its pixels are counted.
func (s *screen) swatches(classes []string, skip func(i int) bool) iter.Seq2[int, swatch] {
	return func(yield func(int, swatch) bool) {
		if s.pixels == nil {
			return
		}
		for i := range s.nodes {
			n := &s.nodes[i]
			if !s.visible(i) || !n.Enabled || !hasClass(n, classes...) || skip != nil && skip(i) {
				continue
			}
			if sw, ok := s.swatchOf(i); ok && !yield(i, sw) {
				return
			}
		}
	}
}

// measured is a contrast finding's measured value: the ratio r of sw and its two colours.
func (sw swatch) measured(r float64) string {
	return fmt.Sprintf("contrast %.2f:1 (%s on %s)", r, hexColor(sw.foreground), hexColor(sw.background))
}

// swatchOf measures a node's pixels. Like ATF it skips a node not wholly inside the
// screenshot and one of a single colour (a blank or censored patch: nothing to read),
// and it skips a node another window covers, whose pixels are that window's.
func (s *screen) swatchOf(i int) (swatch, bool) {
	b := s.nodes[i].Bounds
	if b.Left < 0 || b.Top < 0 || b.Right > s.width || b.Bottom > s.height {
		return swatch{}, false
	}
	for _, c := range s.covered {
		if !empty(intersect(b, c)) {
			return swatch{}, false
		}
	}
	s.pixels.histogram(image.Rect(b.Left, b.Top, b.Right, b.Bottom), &s.counts)
	sw := newSwatch(&s.counts)
	if sw.background == sw.foreground {
		return swatch{}, false
	}
	return sw, true
}

func hexColor(c uint32) string { return fmt.Sprintf("#%06X", c&0xffffff) }

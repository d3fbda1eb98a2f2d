package capture

import (
	"fmt"
	"image"
	"image/jpeg"
	"io"

	"github.com/disintegration/imaging"
)

// PreviewOptions size and compress live-preview frames.
type PreviewOptions struct {
	MaxHeight int // output height limit in pixels; 0 means 720
	MaxWidth  int // output width limit; 0 means no limit beyond the aspect ratio
	Quality   int // JPEG quality 1-100; 0 means 75
}

// LivePreview is how the live preview encodes frames for a stage stageHeight device
// pixels tall (the console reports it; 0 means 960): never taller than the stage shows,
// so a 1× display pays for 700 px, not for the phone's 2400.
func LivePreview(stageHeight int) PreviewOptions {
	if stageHeight <= 0 {
		stageHeight = 960
	}
	return PreviewOptions{MaxHeight: stageHeight, Quality: 78}
}

// EncodePreview writes a JPEG of img scaled down to fit the stage, keeping the
// aspect ratio, and returns the size written. Frames are never scaled up.
func EncodePreview(w io.Writer, img image.Image, opts PreviewOptions) (width, height int, err error) {
	maxH := opts.MaxHeight
	if maxH <= 0 {
		maxH = 720
	}
	q := opts.Quality
	if q <= 0 || q > 100 {
		q = 75
	}
	b := img.Bounds()
	tw, th := fitSize(b.Dx(), b.Dy(), opts.MaxWidth, maxH)
	out := img
	if tw != b.Dx() || th != b.Dy() {
		// Box is an area average: sharp for text at these 3-4× reductions and the
		// cheapest of imaging's filters.
		out = imaging.Resize(img, tw, th, imaging.Box)
	}
	if err := jpeg.Encode(w, jpegFriendly(out), &jpeg.Options{Quality: q}); err != nil {
		return 0, 0, fmt.Errorf("encode preview jpeg: %w", err)
	}
	return tw, th, nil
}

// fitSize scales w×h down to fit maxW×maxH (maxW 0: unbounded), at least 1 px.
func fitSize(w, h, maxW, maxH int) (int, int) {
	if w <= 0 || h <= 0 {
		return w, h
	}
	scale := 1.0
	if maxH > 0 && h > maxH {
		scale = float64(maxH) / float64(h)
	}
	if maxW > 0 && float64(w)*scale > float64(maxW) {
		scale = float64(maxW) / float64(w)
	}
	if scale >= 1 {
		return w, h
	}
	return max(1, int(float64(w)*scale+0.5)), max(1, int(float64(h)*scale+0.5))
}

// jpegFriendly hands image/jpeg an *image.RGBA when the bytes allow it: the encoder
// has a fast path for RGBA and goes pixel by pixel through At for NRGBA. JPEG has no
// alpha, so reading NRGBA bytes as RGBA loses nothing.
func jpegFriendly(img image.Image) image.Image {
	if m, ok := img.(*image.NRGBA); ok {
		return &image.RGBA{Pix: m.Pix, Stride: m.Stride, Rect: m.Rect}
	}
	return img
}

// EncodeScreenPNG writes the full-resolution frame as a lossless PNG with the
// fastest compression, deflated on every core (see encodeOpaquePNG): a screen is
// written once per freeze or capture and must not stall it.
func EncodeScreenPNG(w io.Writer, img image.Image) error {
	if err := encodeOpaquePNG(w, img); err != nil {
		return fmt.Errorf("encode screen png: %w", err)
	}
	return nil
}

// CropRect grows area by margin on every side and clips it to the image. The result
// is empty when area lies outside the image.
func CropRect(imgBounds image.Rectangle, area Bounds, margin int) Bounds {
	r := Bounds{Left: area.Left - margin, Top: area.Top - margin, Right: area.Right + margin, Bottom: area.Bottom + margin}
	return r.Intersect(Bounds{Left: imgBounds.Min.X, Top: imgBounds.Min.Y, Right: imgBounds.Max.X, Bottom: imgBounds.Max.Y})
}

// EncodeCropPNG writes the part of img under area (a node's bounds or a dragged
// area) plus margin pixels around it as PNG, and returns the rectangle written.
func EncodeCropPNG(w io.Writer, img image.Image, area Bounds, margin int) (Bounds, error) {
	r := CropRect(img.Bounds(), area, margin)
	if r.Empty() {
		return r, fmt.Errorf("crop %+v with margin %d: outside the %v frame", area, margin, img.Bounds().Size())
	}
	crop := imaging.Crop(img, image.Rect(r.Left, r.Top, r.Right, r.Bottom))
	if err := EncodeScreenPNG(w, crop); err != nil {
		return r, fmt.Errorf("crop %+v: %w", r, err)
	}
	return r, nil
}

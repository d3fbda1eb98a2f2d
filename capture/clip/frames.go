package clip

import (
	"bytes"
	"fmt"
	"image"
	"image/draw"
	"time"

	"github.com/disintegration/imaging"

	"fixthis/internal/h264"
)

// Frame is one decoded picture of the raw-frame preview and when it was captured.
type Frame struct {
	Image image.Image
	At    time.Time
}

// EncodeFrames codes decoded frames as H.264 (the repo's exact encoder: I_PCM where
// the picture changed, P_Skip elsewhere) so a clip of the raw-frame preview is the
// same kind of file as one cut from the video. Every frame is scaled to the first
// one's size, made even. A frame identical to the previous one codes to nothing and
// is left out, as a phone's screenrecord leaves it out.
//
// changed is each sample's share of 16×16 blocks that differ from the previous
// sample's picture (1 for the first).
func EncodeFrames(frames []Frame) (samples []Sample, changed []float64, width, height int, err error) {
	if len(frames) == 0 {
		return nil, nil, 0, 0, fmt.Errorf("encode frames: no frames")
	}
	b := frames[0].Image.Bounds()
	width, height = b.Dx()&^1, b.Dy()&^1
	enc, err := h264.NewEncoder(width, height)
	if err != nil {
		return nil, nil, 0, 0, fmt.Errorf("encode frames: %w", err)
	}
	rgba := image.NewRGBA(image.Rect(0, 0, width, height))
	prev := image.NewRGBA(rgba.Rect)
	for i, f := range frames {
		src := f.Image
		if fb := src.Bounds(); fb.Dx()&^1 != width || fb.Dy()&^1 != height {
			src = imaging.Resize(src, width, height, imaging.Linear)
		}
		draw.Draw(rgba, rgba.Rect, src, src.Bounds().Min, draw.Src)
		au, key, err := enc.Encode(rgba, i == 0)
		if err != nil {
			return nil, nil, 0, 0, fmt.Errorf("encode frame %d: %w", i, err)
		}
		if au == nil {
			continue
		}
		share := 1.0
		if len(samples) > 0 {
			share = blockShare(prev, rgba)
		}
		samples = append(samples, Sample{Data: au, Key: key, At: f.At})
		changed = append(changed, share)
		prev, rgba = rgba, prev
	}
	return samples, changed, width, height, nil
}

// blockShare is the share of 16×16 blocks in which a and b (same size) differ.
func blockShare(a, b *image.RGBA) float64 {
	w, h := a.Rect.Dx(), a.Rect.Dy()
	bw, bh := (w+15)/16, (h+15)/16
	diff := make([]bool, bw*bh)
	n := 0
	for y := 0; y < h; y++ {
		ra, rb := a.Pix[y*a.Stride:y*a.Stride+4*w], b.Pix[y*b.Stride:y*b.Stride+4*w]
		for bx := 0; bx < bw; bx++ {
			i := (y/16)*bw + bx
			if diff[i] {
				continue
			}
			lo, hi := bx*64, min((bx+1)*64, 4*w)
			if !bytes.Equal(ra[lo:hi], rb[lo:hi]) {
				diff[i] = true
				n++
			}
		}
	}
	return float64(n) / float64(len(diff))
}

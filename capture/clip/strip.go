package clip

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"time"

	"github.com/disintegration/imaging"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// Strip layout: thumbnails this tall, a label band under each, a gap between them.
const (
	stripThumbHeight = 320
	stripLabel       = 18
	stripGap         = 4
)

// StripTimes are the moments a strip shows: 8 evenly spaced over a clip of 4 s or
// more, 6 over a shorter one, the first at the start and the last at the end.
func StripTimes(durationMs int64) []int64 {
	n := 6
	if durationMs >= 4000 {
		n = 8
	}
	out := make([]int64, n)
	for i := range out {
		out[i] = durationMs * int64(i) / int64(n-1)
	}
	return out
}

// Strip renders a frame strip PNG: at each of StripTimes the picture on screen then
// (the newest frame at or before it), scaled to one height, labelled with its time.
// frames are in time order; from is the clip's start.
func Strip(frames []Frame, from time.Time, durationMs int64) ([]byte, error) {
	if len(frames) == 0 {
		return nil, fmt.Errorf("frame strip: no frames")
	}
	times := StripTimes(durationMs)
	b := frames[0].Image.Bounds()
	tw := max(1, b.Dx()*stripThumbHeight/max(1, b.Dy()))
	out := image.NewRGBA(image.Rect(0, 0, len(times)*(tw+stripGap)-stripGap, stripThumbHeight+stripLabel))
	draw.Draw(out, out.Rect, image.NewUniform(color.RGBA{32, 32, 32, 255}), image.Point{}, draw.Src)
	face := basicfont.Face7x13
	var lastIdx = -1
	var thumb image.Image
	for i, t := range times {
		at := from.Add(time.Duration(t) * time.Millisecond)
		idx := 0
		for j, f := range frames {
			if f.At.After(at) {
				break
			}
			idx = j
		}
		if idx != lastIdx {
			thumb = imaging.Resize(frames[idx].Image, tw, stripThumbHeight, imaging.Linear)
			lastIdx = idx
		}
		x := i * (tw + stripGap)
		draw.Draw(out, image.Rect(x, 0, x+tw, stripThumbHeight), thumb, image.Point{}, draw.Src)
		label := fmt.Sprintf("%.1fs", float64(t)/1000)
		d := font.Drawer{Dst: out, Src: image.White, Face: face}
		w := d.MeasureString(label).Ceil()
		d.Dot = fixed.P(x+(tw-w)/2, stripThumbHeight+stripLabel-4)
		d.DrawString(label)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, out); err != nil {
		return nil, fmt.Errorf("frame strip: %w", err)
	}
	return buf.Bytes(), nil
}

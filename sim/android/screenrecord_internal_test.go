// screenrecord's geometry: the content rectangle and the scaler.
package android

import (
	"image"
	"image/color"
	"testing"
)

func TestContentRectKeepsTheDisplayAspect(t *testing.T) {
	tests := []struct {
		dispW, dispH, videoW, videoH int
		want                         image.Rectangle
	}{
		{1080, 2400, 1080, 2400, image.Rect(0, 0, 1080, 2400)},
		{1080, 2400, 368, 816, image.Rect(0, 0, 367, 816)},    // height-limited
		{1080, 2400, 400, 800, image.Rect(20, 0, 380, 800)},   // pillarbox
		{2400, 1080, 1280, 720, image.Rect(0, 72, 1280, 648)}, // landscape, letterbox
		{1080, 2400, 720, 1280, image.Rect(72, 0, 648, 1280)}, // 720p fallback
	}
	for _, tc := range tests {
		if got := contentRect(tc.dispW, tc.dispH, tc.videoW, tc.videoH); got != tc.want {
			t.Errorf("contentRect(%d×%d in %d×%d) = %v, want %v", tc.dispW, tc.dispH, tc.videoW, tc.videoH, got, tc.want)
		}
	}
}

func TestProjectScalesAndLetterboxes(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 1080, 2400))
	for y := 0; y < 2400; y++ {
		for x := 0; x < 1080; x++ {
			c := color.RGBA{200, 40, 40, 255} // top half red
			if y >= 1200 {
				c = color.RGBA{40, 40, 200, 255} // bottom half blue
			}
			src.SetRGBA(x, y, c)
		}
	}
	r := &recorder{w: 400, h: 800, canvas: image.NewRGBA(image.Rect(0, 0, 400, 800))}
	r.project(src)
	// The display is 1080/2400 = 0.45 wide for its height: 360 of 400 columns, centred.
	checks := []struct {
		x, y int
		want color.RGBA
	}{
		{5, 100, color.RGBA{0, 0, 0, 255}},    // left bar
		{395, 700, color.RGBA{0, 0, 0, 255}},  // right bar
		{20, 0, color.RGBA{200, 40, 40, 255}}, // first content column, top
		{200, 300, color.RGBA{200, 40, 40, 255}},
		{379, 799, color.RGBA{40, 40, 200, 255}}, // last content column, bottom
	}
	for _, c := range checks {
		if got := r.canvas.RGBAAt(c.x, c.y); got != c.want {
			t.Errorf("pixel (%d,%d) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
}

package sim

import (
	"image"
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

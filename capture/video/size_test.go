package video

import (
	"image"
	"testing"
	"time"
)

func TestFit(t *testing.T) {
	tests := []struct{ dw, dh, stage, w, h int }{
		{1080, 2400, 900, 400, 896},
		{1080, 2400, 0, 864, 1920}, // capped at 1920 on the long side
		{1080, 2400, 5000, 864, 1920},
		{2400, 1080, 1080, 1920, 864},
		{720, 1280, 640, 352, 640},
		{1080, 2400, 10, 16, 16},
	}
	for _, tc := range tests {
		if w, h := Fit(tc.dw, tc.dh, tc.stage); w != tc.w || h != tc.h {
			t.Errorf("Fit(%d, %d, %d) = %dx%d, want %dx%d", tc.dw, tc.dh, tc.stage, w, h, tc.w, tc.h)
		}
	}
}

func TestContentRectCropsTheRoundingBars(t *testing.T) {
	if r := ContentRect(1080, 2400, 400, 896); r != image.Rect(0, 4, 400, 892) {
		t.Errorf("ContentRect = %v", r)
	}
	if r := ContentRect(1080, 2400, 1080, 2400); r != image.Rect(0, 0, 1080, 2400) {
		t.Errorf("ContentRect full size = %v", r)
	}
}

func TestCommand(t *testing.T) {
	got := Command(400, 896, BitRate(400, 896), 170*time.Second)
	want := "screenrecord --output-format=h264 --size 400x896 --bit-rate 4000000 --time-limit 170 -"
	if got != want {
		t.Errorf("Command = %q, want %q", got, want)
	}
}

package video

import (
	"fmt"
	"image"
	"strconv"
	"time"

	"fixthis/adb"
)

// Limits for the video size and rate asked of the phone's encoder.
const (
	// maxSide keeps the long side within what every AVC encoder level 4.x handles;
	// a preview never needs more.
	maxSide = 1920
	minRate = 4_000_000
	maxRate = 20_000_000
	// DefaultTimeLimit is screenrecord's own limit on most Android versions.
	DefaultTimeLimit = 180 * time.Second
)

// Fit picks the video size for a dispW×dispH display shown at most stageH device
// pixels tall (0: full height): the display's aspect, scaled down, each side rounded
// down to a multiple of 16, which is what hardware encoders code without padding.
func Fit(dispW, dispH, stageH int) (w, h int) {
	if dispW <= 0 || dispH <= 0 {
		return 0, 0
	}
	scale := 1.0
	if stageH > 0 && stageH < dispH {
		scale = float64(stageH) / float64(dispH)
	}
	if long := max(dispW, dispH); float64(long)*scale > maxSide {
		scale = maxSide / float64(long)
	}
	w = max(16, int(float64(dispW)*scale)/16*16)
	h = max(16, int(float64(dispH)*scale)/16*16)
	return w, h
}

// BitRate is a rate that keeps screen text sharp on a hardware encoder at w×h:
// about 4 bits per pixel per second, within 4–20 Mbps.
func BitRate(w, h int) int { return min(maxRate, max(minRate, w*h*4)) }

// ContentRect is where screenrecord draws a dispW×dispH display inside a w×h video:
// as large as fits with the display's aspect, centred. Rounding the video to whole
// macroblocks leaves a bar of a few pixels that the console crops away.
func ContentRect(dispW, dispH, w, h int) image.Rectangle {
	aspect := float64(dispH) / float64(dispW)
	outW, outH := w, int(float64(w)*aspect)
	if h <= outH {
		outH, outW = h, int(float64(h)/aspect)
	}
	x, y := (w-outW)/2, (h-outH)/2
	return image.Rect(x, y, x+outW, y+outH)
}

// Command is the device command that streams w×h H.264 to stdout for at most limit.
func Command(w, h, bitRate int, limit time.Duration) string {
	secs := max(1, int(limit/time.Second))
	return adb.Command("screenrecord", "--output-format=h264", "--size", fmt.Sprintf("%dx%d", w, h),
		"--bit-rate", strconv.Itoa(bitRate), "--time-limit", strconv.Itoa(secs), "-")
}

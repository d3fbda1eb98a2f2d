package clip

import (
	"errors"
	"time"
)

// The range a clip's length must lie in.
const (
	MinSeconds = 1
	MaxSeconds = 30
	// Window is how far back the live screen is kept.
	Window = 10 * time.Second
)

// ErrNoPictures means the history holds nothing to cut.
var ErrNoPictures = errors.New("no pictures of the screen were kept")

// Clip is a cut: the MP4, the frame strip (nil when no decoded frames were at hand)
// and the timeline.
type Clip struct {
	MP4        []byte
	Strip      []byte
	DurationMs int64
	Frames     int // pictures in the MP4
	Width      int
	Height     int
	Timeline   Timeline
}

// CutVideo muxes coded pictures (from a key frame) into a clip lasting from from to
// to. stripFrames are decoded pictures of the same span for the strip (may be nil).
func CutVideo(samples []Sample, width, height int, from, to time.Time, stripFrames []Frame) (*Clip, error) {
	if len(samples) == 0 {
		return nil, ErrNoPictures
	}
	data, dur, err := MuxMP4(samples, width, height, from, to)
	if err != nil {
		return nil, err
	}
	dts, _ := Timing(samples, from, to)
	c := &Clip{MP4: data, DurationMs: int64(dur), Frames: len(samples), Width: width, Height: height,
		Timeline: NewTimeline(samples, dts, dur, nil)}
	if len(stripFrames) > 0 {
		if c.Strip, err = Strip(stripFrames, from, c.DurationMs); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// CutFrames codes decoded frames (the first at or before from) as an H.264 clip from
// from to to, with a strip and a timeline that knows how much of each picture changed.
func CutFrames(frames []Frame, from, to time.Time) (*Clip, error) {
	if len(frames) == 0 {
		return nil, ErrNoPictures
	}
	samples, changed, w, h, err := EncodeFrames(frames)
	if err != nil {
		return nil, err
	}
	data, dur, err := MuxMP4(samples, w, h, from, to)
	if err != nil {
		return nil, err
	}
	dts, _ := Timing(samples, from, to)
	strip, err := Strip(frames, from, int64(dur))
	if err != nil {
		return nil, err
	}
	return &Clip{MP4: data, Strip: strip, DurationMs: int64(dur), Frames: len(samples), Width: w, Height: h,
		Timeline: NewTimeline(samples, dts, dur, changed)}, nil
}

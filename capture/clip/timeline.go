package clip

import (
	"fmt"
	"strings"
	"time"
)

// StallGap is the longest pause between two pictures that still counts as motion:
// six display frames at 60 Hz. A longer one, between pictures, is a stall (the screen
// repeated its last picture), or the screen resting.
const StallGap = 100 * time.Millisecond

// Change is one picture on a clip's timeline.
type Change struct {
	AtMs  int64 `json:"atMs"` // from the clip's start (pre-roll pictures at 0)
	Key   bool  `json:"key,omitempty"`
	Bytes int   `json:"bytes"` // coded size: how much of the picture the encoder had to send
	// Changed is the share of the picture that differs from the previous one, 0–1,
	// where the pixels are known (clips of raw frames); -1 where they are not.
	Changed float64 `json:"changed"`
	// HeldMs is how long the previous picture stayed on screen before this one when
	// that was longer than StallGap (0 otherwise).
	HeldMs int64 `json:"heldMs,omitempty"`
}

// Timeline says which pictures of a clip changed and how much, and where it stalled.
type Timeline struct {
	DurationMs int64    `json:"durationMs"`
	Changes    []Change `json:"changes"`
	Stalls     int      `json:"stalls"`
	LongestMs  int64    `json:"longestStallMs"`
}

// NewTimeline builds the timeline of samples placed by Timing; changed holds each
// sample's changed share (nil: unknown).
func NewTimeline(samples []Sample, dts []uint64, durationMs uint64, changed []float64) Timeline {
	tl := Timeline{DurationMs: int64(durationMs), Changes: make([]Change, 0, len(samples))}
	for i, s := range samples {
		c := Change{AtMs: int64(dts[i]), Key: s.Key, Bytes: len(s.Data), Changed: -1}
		if changed != nil {
			c.Changed = changed[i]
		}
		if i > 0 {
			if gap := int64(dts[i] - dts[i-1]); gap > StallGap.Milliseconds() {
				c.HeldMs = gap
				tl.Stalls++
				tl.LongestMs = max(tl.LongestMs, gap)
			}
		}
		tl.Changes = append(tl.Changes, c)
	}
	return tl
}

// Summary is the timeline in one line: runs of motion and the stalls between them.
// "0.0–1.2s moving (38 pictures) · held 1.2s for 420ms · 1.6–2.0s moving (12 pictures)".
func (tl Timeline) Summary() string {
	if len(tl.Changes) == 0 {
		return "no pictures"
	}
	var parts []string
	runStart, n := tl.Changes[0].AtMs, 0
	prev := tl.Changes[0].AtMs
	flush := func(end int64) {
		if n == 1 {
			parts = append(parts, fmt.Sprintf("%s one picture", secs(runStart)))
		} else {
			parts = append(parts, fmt.Sprintf("%s–%s moving (%d pictures)", secs(runStart), secs(end), n))
		}
	}
	for _, c := range tl.Changes {
		if c.HeldMs > 0 {
			flush(prev)
			parts = append(parts, fmt.Sprintf("held %s for %dms", secs(prev), c.HeldMs))
			runStart, n = c.AtMs, 0
		}
		n++
		prev = c.AtMs
	}
	flush(prev)
	if rest := tl.DurationMs - prev; rest > StallGap.Milliseconds() {
		parts = append(parts, fmt.Sprintf("still from %s to the end", secs(prev)))
	}
	return strings.Join(parts, " · ")
}

func secs(ms int64) string { return fmt.Sprintf("%.1fs", float64(ms)/1000) }

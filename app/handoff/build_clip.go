package handoff

import (
	"encoding/json"

	"fixthis/app/store"
	"fixthis/capture/clip"
)

// clipOf is an item's clip for the handoff: absolute file paths, as for crops, and
// the timeline in one line.
func (b *Builder) clipOf(c *store.Clip) *Clip {
	if c == nil {
		return nil
	}
	out := &Clip{DurationMs: c.DurationMs, Frames: c.Frames, Width: c.Width, Height: c.Height}
	out.Path, _ = b.Store.ArtifactPath(c.VideoArtifact)
	if c.StripArtifact != "" {
		out.FrameStripPath, _ = b.Store.ArtifactPath(c.StripArtifact)
	}
	var tl clip.Timeline
	if json.Unmarshal(c.Timeline, &tl) == nil {
		out.Stalls, out.LongestStallMs, out.Timeline = tl.Stalls, tl.LongestMs, tl.Summary()
	}
	return out
}

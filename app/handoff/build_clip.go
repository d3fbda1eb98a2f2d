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
	path, _ := b.Store.ArtifactPath(c.VideoArtifact)
	strip := ""
	if c.StripArtifact != "" {
		strip, _ = b.Store.ArtifactPath(c.StripArtifact)
	}
	out := ClipOf(c, path, strip)
	return &out
}

// ClipOf is c as an agent reads it, with its video and frame strip at the paths
// given (absolute in a handoff, relative to the project in an MCP answer): the
// stored timeline in one line and its stalls counted.
func ClipOf(c *store.Clip, path, stripPath string) Clip {
	out := Clip{Path: path, DurationMs: c.DurationMs, Frames: c.Frames, Width: c.Width, Height: c.Height, FrameStripPath: stripPath}
	var tl clip.Timeline
	if json.Unmarshal(c.Timeline, &tl) == nil {
		out.Stalls, out.LongestStallMs, out.Timeline = tl.Stalls, tl.LongestMs, tl.Summary()
	}
	return out
}

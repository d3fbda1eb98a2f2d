package evidence

import (
	"context"
	"slices"
)

// CollectOnly runs the preset's collectors of the given kinds as Collect runs
// them (shared log read, timeouts, redaction), so a benchmark can set the
// preset with and without one collector side by side. Nothing is stored.
func CollectOnly(ctx context.Context, sh Shell, req Request, kinds ...Kind) []Attachment {
	var cs []collector
	for _, c := range preset {
		if slices.Contains(kinds, c.kind) {
			cs = append(cs, c)
		}
	}
	out, _ := runCollectors(ctx, sh, req, cs)
	return out
}

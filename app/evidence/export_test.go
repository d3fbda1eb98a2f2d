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

// ByKind indexes an attempt's attachments by collector, for the tests inside
// and outside the package.
func ByKind(a Attempt) map[Kind]Attachment {
	m := map[Kind]Attachment{}
	for _, at := range a.Attachments {
		m[at.Kind] = at
	}
	return m
}

// Package verify compares the screen an item was written on with the screen an agent
// captured after its fix: how much the item's region changed (perceptual hashes of
// the two crops) and, for a node target, what became of that node in the new tree.
// It needs only the store, so the app and the stdio sidecar compute it the same way.
package verify

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"math"
	"strings"

	"github.com/disintegration/imaging"

	"fixthis/app/store"
	"fixthis/capture"
)

// Compute describes item's region and node in the capture taken after the fix.
func Compute(ctx context.Context, st *store.Store, it store.Item, captureID string) (*store.Verification, error) {
	after, err := st.GetCapture(ctx, captureID)
	if err != nil {
		return nil, err
	}
	afterImg, afterNodes, err := load(ctx, st, after.ImageArtifact, after.NodesArtifact)
	if err != nil {
		return nil, fmt.Errorf("read capture %s: %w", captureID, err)
	}
	v := &store.Verification{CaptureID: after.CaptureID, AfterImageURL: after.ImageURL, Fingerprint: after.Fingerprint}
	var beforeImg *image.NRGBA
	if it.ScreenID != "" {
		sc, err := st.GetScreen(ctx, it.SessionID, it.ScreenID)
		if err != nil {
			return nil, err
		}
		if beforeImg, _, err = load(ctx, st, sc.ImageArtifact, ""); err != nil {
			return nil, fmt.Errorf("read the item's screen: %w", err)
		}
	}
	region := targetRegion(it.Target, beforeImg, afterImg)
	if it.Target.Type == store.TargetNode && it.Target.Snapshot != nil {
		v.Node = findNode(*it.Target.Snapshot, it.Target.Bounds, afterNodes)
	}
	afterRegion := region
	if v.Node != nil && v.Node.Found && v.Node.Bounds != nil {
		afterRegion = toRect(*v.Node.Bounds)
	}
	if beforeImg != nil {
		v.RegionChange = regionChange(beforeImg, region, afterImg, afterRegion)
	}
	v.Summary = summary(v, beforeImg != nil)
	return v, nil
}

func load(ctx context.Context, st *store.Store, imgKey, nodesKey string) (*image.NRGBA, []capture.Node, error) {
	raw, err := st.ReadArtifact(ctx, imgKey)
	if err != nil {
		return nil, nil, err
	}
	img, err := capture.DecodePNG(raw)
	if err != nil {
		return nil, nil, err
	}
	var nodes []capture.Node
	if nodesKey != "" {
		data, err := st.ReadArtifact(ctx, nodesKey)
		if err != nil {
			return nil, nil, err
		}
		if err := json.Unmarshal(data, &nodes); err != nil {
			return nil, nil, fmt.Errorf("decode nodes: %w", err)
		}
	}
	return img, nodes, nil
}

func toRect(b store.Bounds) image.Rectangle { return image.Rect(b.Left, b.Top, b.Right, b.Bottom) }

// targetRegion is the part of the screen the item is about: its bounds, or the whole
// screen for a screen note.
func targetRegion(t store.Target, imgs ...*image.NRGBA) image.Rectangle {
	if t.Bounds != nil && t.Type != store.TargetScreen {
		return toRect(*t.Bounds)
	}
	for _, img := range imgs {
		if img != nil {
			return img.Bounds()
		}
	}
	return image.Rectangle{}
}

// regionChange is 0 when the two crops look the same and 1 when nothing is alike: the
// Hamming distance of their 64-bit perceptual hashes, scaled.
func regionChange(before *image.NRGBA, br image.Rectangle, after *image.NRGBA, ar image.Rectangle) float64 {
	br, ar = br.Intersect(before.Bounds()), ar.Intersect(after.Bounds())
	if br.Empty() || ar.Empty() {
		return 1
	}
	a := capture.PerceptualHash(imaging.Crop(before, br))
	b := capture.PerceptualHash(imaging.Crop(after, ar))
	return math.Round(float64(capture.HammingDistance(a, b))/64*100) / 100
}

// findNode looks for the annotated node in the new tree by its identity: resource
// id, then test tag, then text, preferring the candidate nearest its old place.
func findNode(snap store.NodeSnapshot, old *store.Bounds, nodes []capture.Node) *store.NodeChange {
	nc := &store.NodeChange{Before: snap.Text}
	tries := []struct {
		by    string
		match func(capture.Node) bool
	}{
		{"resourceId", func(n capture.Node) bool { return snap.ResourceID != "" && n.ResourceID == snap.ResourceID }},
		{"testTag", func(n capture.Node) bool { return snap.TestTag != "" && n.TestTag == snap.TestTag }},
		{"text", func(n capture.Node) bool { return snap.Text != "" && n.Text == snap.Text }},
		{"contentDescription", func(n capture.Node) bool {
			return snap.ContentDescription != "" && n.ContentDescription == snap.ContentDescription
		}},
	}
	for _, try := range tries {
		var best *capture.Node
		for i := range nodes {
			if try.match(nodes[i]) && (best == nil || distance(nodes[i].Bounds, old) < distance(best.Bounds, old)) {
				best = &nodes[i]
			}
		}
		if best == nil {
			continue
		}
		b := store.Bounds{Left: best.Bounds.Left, Top: best.Bounds.Top, Right: best.Bounds.Right, Bottom: best.Bounds.Bottom}
		nc.Found, nc.MatchedBy, nc.After, nc.Bounds = true, try.by, best.Text, &b
		nc.Visible = !best.Bounds.Empty()
		nc.Moved = old != nil && b != *old
		return nc
	}
	return nc
}

func distance(b capture.Bounds, old *store.Bounds) int {
	if old == nil {
		return 0
	}
	abs := func(x int) int { return max(x, -x) }
	return abs(b.Left-old.Left) + abs(b.Top-old.Top)
}

func summary(v *store.Verification, haveBefore bool) string {
	var parts []string
	switch {
	case !haveBefore:
		parts = append(parts, "no before screen to compare with")
	case v.RegionChange < 0.05:
		parts = append(parts, "no visible change in the item's region")
	default:
		parts = append(parts, fmt.Sprintf("the item's region changed %d%%", int(math.Round(v.RegionChange*100))))
	}
	if n := v.Node; n != nil {
		switch {
		case !n.Found:
			parts = append(parts, "the node is not on the new screen")
		case n.After != n.Before:
			parts = append(parts, fmt.Sprintf("text %q → %q", n.Before, n.After))
		}
		if n.Found && n.Moved {
			b := n.Bounds
			parts = append(parts, fmt.Sprintf("now at (%d,%d)-(%d,%d)", b.Left, b.Top, b.Right, b.Bottom))
		}
	}
	return strings.Join(parts, "; ")
}

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
	v := &store.Verification{CaptureID: after.CaptureID, AfterImageURL: after.ImageURL, Fingerprint: after.Fingerprint,
		Conditions: after.Conditions}
	var beforeImg *image.NRGBA
	var beforeCond *store.DisplayConditions
	if it.ScreenID != "" {
		sc, err := st.GetScreen(ctx, it.SessionID, it.ScreenID)
		if err != nil {
			return nil, err
		}
		beforeCond = sc.Display.Conditions
		if beforeImg, _, err = load(ctx, st, sc.ImageArtifact, ""); err != nil {
			return nil, fmt.Errorf("read the item's screen: %w", err)
		}
	}
	region := targetRegion(it.Target, beforeImg, afterImg)
	if it.Target.Type == store.TargetNode && it.Target.Snapshot != nil {
		v.Node = findNode(it.Target, afterNodes)
	}
	afterRegion := region
	if v.Node != nil && v.Node.Found && v.Node.Bounds != nil {
		afterRegion = toRect(*v.Node.Bounds)
	}
	if beforeImg != nil {
		v.RegionChange = regionChange(beforeImg, region, afterImg, afterRegion)
	}
	v.Summary = summary(v, beforeImg != nil)
	// Both known and different: the after screen was not checked the way the user saw it.
	if beforeCond != nil && after.Conditions != nil && beforeCond.Line() != after.Conditions.Line() {
		v.Summary += "; checked under other display conditions (written under " + orDefaults(beforeCond.Line()) +
			", checked under " + orDefaults(after.Conditions.Line()) + ")"
	}
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

func orDefaults(line string) string {
	if line == "" {
		return "the phone's defaults"
	}
	return line
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

// Locator is what an item knows of its node, to find it again in a newer tree: the
// snapshot's keys, and its old bounds as the near hint.
func Locator(t store.Target) capture.Locator {
	var loc capture.Locator
	if s := t.Snapshot; s != nil {
		loc = capture.Locator{TestTag: s.TestTag, ResourceID: s.ResourceID, ContentDescription: s.ContentDescription, Text: s.Text}
	}
	if b := t.Bounds; b != nil {
		loc.Near = &capture.Bounds{Left: b.Left, Top: b.Top, Right: b.Right, Bottom: b.Bottom}
	}
	return loc
}

// findNode looks for the annotated node in the new tree (capture.FindNode's order:
// test tag, resource id, content description, text; nearest its old place).
func findNode(t store.Target, nodes []capture.Node) *store.NodeChange {
	nc := &store.NodeChange{Before: t.Snapshot.Text}
	m, ok := capture.FindNode(nodes, Locator(t), capture.MatchOptions{})
	if !ok {
		return nc
	}
	n := m.Node
	b := store.Bounds{Left: n.Bounds.Left, Top: n.Bounds.Top, Right: n.Bounds.Right, Bottom: n.Bounds.Bottom}
	nc.Found, nc.MatchedBy, nc.After, nc.Bounds = true, string(m.By), n.Text, &b
	nc.Visible = !n.Bounds.Empty()
	nc.Moved = t.Bounds != nil && b != *t.Bounds
	return nc
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

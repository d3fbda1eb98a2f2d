package app

import (
	"context"
	"time"

	"fixthis/app/store"
	"fixthis/capture"
)

// mcpScreen answers read_feedback's "is this node still on screen?" from a fresh
// capture of the selected device.
type mcpScreen struct{ a *App }

func (s mcpScreen) NodeOnScreen(ctx context.Context, snap store.NodeSnapshot) (present, known bool) {
	dev, err := s.a.device.Registry.Selected()
	if err != nil {
		return false, false
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	shot, err := s.a.device.Capturer.Capture(ctx, dev.Serial)
	if err != nil || shot.TreeErr != nil {
		return false, false
	}
	return nodeMatches(shot.Nodes, snap)
}

// nodeMatches finds the snapshot's node among nodes by its most stable key: a
// test tag, else a resource id, else its text, else its content description.
func nodeMatches(nodes []capture.Node, snap store.NodeSnapshot) (present, known bool) {
	var key func(capture.Node) bool
	switch {
	case snap.TestTag != "":
		key = func(n capture.Node) bool { return n.TestTag == snap.TestTag }
	case snap.ResourceID != "":
		key = func(n capture.Node) bool { return n.ResourceID == snap.ResourceID }
	case snap.Text != "":
		key = func(n capture.Node) bool { return n.Text == snap.Text }
	case snap.ContentDescription != "":
		key = func(n capture.Node) bool { return n.ContentDescription == snap.ContentDescription }
	default:
		return false, false
	}
	for _, n := range nodes {
		if key(n) {
			return true, true
		}
	}
	return false, true
}

package app

import (
	"context"
	"time"

	"fixthis/app/store"
	"fixthis/app/verify"
	"fixthis/capture"
)

// mcpScreen answers read_feedback's "is this node still on screen?" from a fresh
// capture of the selected device.
type mcpScreen struct{ a *App }

func (s mcpScreen) NodeOnScreen(ctx context.Context, target store.Target) (present, known bool) {
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
	return nodeOnScreen(shot.Nodes, target)
}

// nodeOnScreen finds the target's node among nodes the way verification does
// (capture.FindNode), so an item read_feedback calls orphaned is one a verification
// would not find either. known is false when the snapshot names the node by nothing.
func nodeOnScreen(nodes []capture.Node, target store.Target) (present, known bool) {
	loc := verify.Locator(target)
	if !loc.HasKey() {
		return false, false
	}
	_, present = capture.FindNode(nodes, loc, capture.MatchOptions{})
	return present, true
}

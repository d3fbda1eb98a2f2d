package feedback

import (
	"testing"

	"fixthis/app/store"
	"fixthis/capture"
)

func TestNodeOnScreen(t *testing.T) {
	// The screen after a fix: the button's id was renamed, its label kept; the
	// title's text changed under its tag.
	nodes := []capture.Node{
		{UID: "n0.0", ResourceID: "com.trail:id/save_trail", Text: "Save", Bounds: capture.Bounds{Left: 20, Top: 900, Right: 300, Bottom: 980}},
		{UID: "n0.1", ResourceID: "title", TestTag: "title", Text: "Trails near you", Bounds: capture.Bounds{Left: 0, Top: 100, Right: 1080, Bottom: 200}},
	}
	node := func(snap store.NodeSnapshot) store.Target {
		return store.Target{Type: store.TargetNode, Snapshot: &snap, Bounds: &store.Bounds{Left: 20, Top: 900, Right: 300, Bottom: 980}}
	}
	tests := []struct {
		name           string
		target         store.Target
		present, known bool
	}{
		// read_feedback once tried the id alone and called this orphaned, while
		// verification found the button by its label.
		{"renamed id, same label", node(store.NodeSnapshot{ResourceID: "com.trail:id/save", Text: "Save"}), true, true},
		{"changed text under a tag", node(store.NodeSnapshot{TestTag: "title", Text: "Trails"}), true, true},
		{"gone", node(store.NodeSnapshot{ResourceID: "com.trail:id/share", Text: "Share"}), false, true},
		{"nothing to match on", node(store.NodeSnapshot{Class: "android.view.View"}), false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			present, known := nodeOnScreen(nodes, tc.target)
			if present != tc.present || known != tc.known {
				t.Fatalf("present %v known %v, want %v %v", present, known, tc.present, tc.known)
			}
		})
	}
}

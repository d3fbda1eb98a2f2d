package capture

import "strings"

// Finding a node again. What is known of a node seen once (the snapshot an item kept,
// a kept capture's uid, an agent's selector) is a Locator; FindNode looks for it in
// another tree by its keys, strongest first:
//
//	uid                 the same node of the same tree (only a capture's own uid)
//	testTag             Compose's Modifier.testTag, chosen by the app's developer
//	resourceId          a View id: the full id, its name after ":id/", or a test tag
//	contentDescription  an icon's label, rarely edited
//	text                what the node says: the key a fix most often changes
//
// The strongest key that matches any node decides, and a weaker key is tried only
// when no node carries a stronger one (unless MatchOptions.StrongestKeyOnly). Among
// the nodes a key matches, the one nearest Near wins; without Near, the first in
// tree order.

// MatchKey names the key a node was found by; it is stored as a verification's
// matchedBy.
type MatchKey string

// The keys, strongest first.
const (
	ByUID                MatchKey = "uid"
	ByTestTag            MatchKey = "testTag"
	ByResourceID         MatchKey = "resourceId"
	ByContentDescription MatchKey = "contentDescription"
	ByText               MatchKey = "text"
)

// Locator is what is known of a node to find it again.
type Locator struct {
	UID                string
	TestTag            string
	ResourceID         string
	ContentDescription string
	Text               string
	// Near, when set, is where the node was: among several matches the nearest wins.
	Near *Bounds
}

// HasKey reports whether the locator names the node by anything; a locator without
// a key finds nothing, and a caller cannot tell whether the node is there.
func (l Locator) HasKey() bool {
	return l.UID != "" || l.TestTag != "" || l.ResourceID != "" || l.ContentDescription != "" || l.Text != ""
}

// MatchOptions are the differences between callers, kept on purpose.
type MatchOptions struct {
	// VisibleOnly skips nodes with empty bounds: an agent cannot tap them. Without
	// it such a node is found, and the caller can say it is not visible.
	VisibleOnly bool
	// StrongestKeyOnly tries only the locator's strongest key: an agent's selector
	// names one key, and a weaker one could tap a node it did not mean.
	StrongestKeyOnly bool
}

// Match is a node found again and the key that found it.
type Match struct {
	Node *Node
	By   MatchKey
}

// FindNode finds the locator's node among nodes (see the priority above). The node
// points into nodes.
func FindNode(nodes []Node, loc Locator, opts MatchOptions) (Match, bool) {
	for _, k := range loc.keys() {
		var best *Node
		bestDist := 0
		for i := range nodes {
			n := &nodes[i]
			if opts.VisibleOnly && n.Bounds.Empty() || !k.match(n) {
				continue
			}
			if d := distance(n.Bounds, loc.Near); best == nil || d < bestDist {
				best, bestDist = n, d
			}
		}
		if best != nil {
			return Match{Node: best, By: k.by}, true
		}
		if opts.StrongestKeyOnly {
			break
		}
	}
	return Match{}, false
}

type locatorKey struct {
	by    MatchKey
	match func(*Node) bool
}

// keys lists the locator's non-empty keys, strongest first.
func (l Locator) keys() []locatorKey {
	var ks []locatorKey
	add := func(v string, by MatchKey, match func(*Node) bool) {
		if v != "" {
			ks = append(ks, locatorKey{by, match})
		}
	}
	add(l.UID, ByUID, func(n *Node) bool { return n.UID == l.UID })
	add(l.TestTag, ByTestTag, func(n *Node) bool { return n.TestTag == l.TestTag })
	add(l.ResourceID, ByResourceID, func(n *Node) bool { return resourceIDMatches(n, l.ResourceID) })
	add(l.ContentDescription, ByContentDescription, func(n *Node) bool { return n.ContentDescription == l.ContentDescription })
	add(l.Text, ByText, func(n *Node) bool { return n.Text == l.Text })
	return ks
}

// resourceIDMatches: id is the node's full resource id, its name after ":id/"
// ("save" for "com.app:id/save"), or its test tag.
func resourceIDMatches(n *Node, id string) bool {
	if n.ResourceID == id || n.TestTag == id {
		return true
	}
	_, name, ok := strings.Cut(n.ResourceID, ":id/")
	return ok && name == id
}

// distance is how far b's top-left corner lies from near's (0 without near).
func distance(b Bounds, near *Bounds) int {
	if near == nil {
		return 0
	}
	abs := func(x int) int { return max(x, -x) }
	return abs(b.Left-near.Left) + abs(b.Top-near.Top)
}

package capture

import (
	"math"
	"sort"
)

// Tree indexes a parsed UI tree for lookups and hit-testing. It is immutable and
// safe for concurrent use once built.
type Tree struct {
	nodes      []Node
	byUID      map[string]int
	parent     []int // index of the parent node, -1 for roots
	hasKids    []bool
	meaningful []bool
	screen     Bounds
}

// Hit is the node under a point with its ancestors, root first (the breadcrumb).
type Hit struct {
	Node      Node   `json:"node"`
	Ancestors []Node `json:"ancestors"`
}

// AreaHit is what a dragged area resolves to: the best-overlapping node (nil when
// the area overlaps no meaningful node), how well it overlaps (intersection over
// union, 0-1), and up to MaxNearby meaningful nodes around the area, closest first.
type AreaHit struct {
	Node      *Node   `json:"node,omitempty"`
	Ancestors []Node  `json:"ancestors,omitempty"`
	Overlap   float64 `json:"overlap"`
	Nearby    []Node  `json:"nearby"`
}

// MaxNearby bounds AreaHit.Nearby.
const MaxNearby = 8

// fullScreenShare is the share of the screen above which a node with children is a
// layout container, never a target.
const fullScreenShare = 0.9

// NewTree indexes nodes as ParseDump (or the sidekick) returns them: in document
// order, parents before children.
func NewTree(nodes []Node) *Tree {
	t := &Tree{
		nodes:      nodes,
		byUID:      make(map[string]int, len(nodes)),
		parent:     make([]int, len(nodes)),
		hasKids:    make([]bool, len(nodes)),
		meaningful: make([]bool, len(nodes)),
	}
	for i, n := range nodes {
		t.byUID[n.UID] = i
	}
	for i, n := range nodes {
		p, ok := t.byUID[n.ParentUID]
		if n.ParentUID == "" || !ok || p == i {
			p = -1
		}
		t.parent[i] = p
		if p >= 0 {
			t.hasKids[p] = true
		}
		if p < 0 && !n.Bounds.Empty() {
			t.screen = union(t.screen, n.Bounds)
		}
	}
	screenArea := float64(t.screen.Area())
	for i, n := range nodes {
		t.meaningful[i] = isMeaningful(n, t.hasKids[i], screenArea)
	}
	return t
}

// isMeaningful says whether a node can be a target: it has a size, is not a
// full-screen layout container, and says something (text, description, id, tag),
// reacts (clickable, scrollable) or is a leaf that paints something.
func isMeaningful(n Node, hasKids bool, screenArea float64) bool {
	if n.Bounds.Empty() {
		return false
	}
	if hasKids && screenArea > 0 && float64(n.Bounds.Area()) >= fullScreenShare*screenArea {
		return false
	}
	if n.ResourceID == "android:id/content" {
		return false
	}
	return n.Text != "" || n.ContentDescription != "" || n.TestTag != "" || n.ResourceID != "" ||
		n.Clickable || n.Scrollable || n.Redacted || !hasKids
}

func union(a, b Bounds) Bounds {
	if a.Empty() {
		return b
	}
	return Bounds{Left: min(a.Left, b.Left), Top: min(a.Top, b.Top), Right: max(a.Right, b.Right), Bottom: max(a.Bottom, b.Bottom)}
}

// Nodes returns the nodes in document order. The slice is shared: do not modify.
func (t *Tree) Nodes() []Node { return t.nodes }

// Len is the number of nodes.
func (t *Tree) Len() int { return len(t.nodes) }

// Screen is the union of the root nodes' bounds: the screen the tree covers.
func (t *Tree) Screen() Bounds { return t.screen }

// ByUID returns the node with that uid.
func (t *Tree) ByUID(uid string) (Node, bool) {
	i, ok := t.byUID[uid]
	if !ok {
		return Node{}, false
	}
	return t.nodes[i], true
}

// Ancestors returns the ancestors of a node, root first, without the node itself;
// nil for an unknown uid or a root.
func (t *Tree) Ancestors(uid string) []Node {
	i, ok := t.byUID[uid]
	if !ok {
		return nil
	}
	return t.ancestors(i)
}

func (t *Tree) ancestors(i int) []Node {
	depth := 0
	for p := t.parent[i]; p >= 0 && depth <= len(t.nodes); p = t.parent[p] {
		depth++
	}
	if depth == 0 {
		return nil
	}
	out := make([]Node, depth)
	for p := t.parent[i]; p >= 0 && depth > 0; p = t.parent[p] {
		depth--
		out[depth] = t.nodes[p]
	}
	return out
}

// HitTest returns the smallest meaningful node containing the pixel (x, y). Among
// equal areas the later node in document order wins: it is drawn on top, or deeper.
func (t *Tree) HitTest(x, y int) (Hit, bool) {
	best := -1
	var bestArea int64
	for i := range t.nodes {
		if !t.meaningful[i] {
			continue
		}
		b := &t.nodes[i].Bounds
		if !b.Contains(x, y) {
			continue
		}
		if a := b.Area(); best < 0 || a <= bestArea {
			best, bestArea = i, a
		}
	}
	if best < 0 {
		return Hit{}, false
	}
	return Hit{Node: t.nodes[best], Ancestors: t.ancestors(best)}, true
}

// HitArea resolves a dragged rectangle: the meaningful node with the highest
// intersection over union (ties: smaller, then later in document order), plus the
// meaningful nodes nearest to the area — except that node and its ancestors (already
// in the breadcrumb) — within a radius of the area's longer side (at least 160 px).
func (t *Tree) HitArea(area Bounds) AreaHit {
	res := AreaHit{Nearby: []Node{}}
	if area.Empty() {
		return res
	}
	best, bestIoU := -1, 0.0
	var bestArea int64
	for i := range t.nodes {
		if !t.meaningful[i] {
			continue
		}
		b := t.nodes[i].Bounds
		inter := b.Intersect(area).Area()
		if inter == 0 {
			continue
		}
		iou := float64(inter) / float64(b.Area()+area.Area()-inter)
		if a := b.Area(); best < 0 || iou > bestIoU || (iou == bestIoU && a <= bestArea) {
			best, bestIoU, bestArea = i, iou, a
		}
	}
	skip := map[int]bool{}
	if best >= 0 {
		n := t.nodes[best]
		res.Node, res.Ancestors, res.Overlap = &n, t.ancestors(best), math.Round(bestIoU*1000)/1000
		skip[best] = true
		for p := t.parent[best]; p >= 0 && !skip[p]; p = t.parent[p] {
			skip[p] = true
		}
	}
	radius := float64(max(area.Width(), area.Height(), 160))
	type cand struct {
		i          int
		gap, centr float64
	}
	var cands []cand
	for i := range t.nodes {
		if !t.meaningful[i] || skip[i] {
			continue
		}
		b := t.nodes[i].Bounds
		gap := rectGap(b, area)
		if gap > radius {
			continue
		}
		cands = append(cands, cand{i, gap, centreDist(b, area)})
	}
	sort.Slice(cands, func(a, b int) bool {
		x, y := cands[a], cands[b]
		if x.gap != y.gap {
			return x.gap < y.gap
		}
		if x.centr != y.centr {
			return x.centr < y.centr
		}
		return x.i < y.i
	})
	for _, c := range cands[:min(len(cands), MaxNearby)] {
		res.Nearby = append(res.Nearby, t.nodes[c.i])
	}
	return res
}

// rectGap is the distance between two rectangles' edges, 0 when they overlap.
func rectGap(a, b Bounds) float64 {
	dx := max(0, a.Left-b.Right, b.Left-a.Right)
	dy := max(0, a.Top-b.Bottom, b.Top-a.Bottom)
	return math.Hypot(float64(dx), float64(dy))
}

func centreDist(a, b Bounds) float64 {
	return math.Hypot(float64(a.Left+a.Right-b.Left-b.Right)/2, float64(a.Top+a.Bottom-b.Top-b.Bottom)/2)
}

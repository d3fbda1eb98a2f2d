package audit

import (
	"iter"
	"math"

	"fixthis/capture"
)

// screen is a validated Input with the tree indexed for the checks.
type screen struct {
	nodes    []capture.Node
	extras   []Extra
	parent   []int   // index of the parent node, -1 for a root
	children [][]int // indexes of the children, in document order
	density  float64 // pixels per dp
	width    int
	height   int
	pixels   pixelReader // nil without a screenshot
	covered  []capture.Bounds
	counts   colorCounts // the colour histogram, reused from node to node
}

func newScreen(in Input) (*screen, error) {
	if len(in.Nodes) == 0 {
		return nil, badInput("the screen has no nodes")
	}
	if in.DensityDPI == 0 {
		return nil, badInput("the density is unknown: give it in dpi (wm density), e.g. 420")
	}
	if in.DensityDPI < MinDensityDPI || in.DensityDPI > MaxDensityDPI {
		return nil, badInput("density %d dpi is outside %d-%d", in.DensityDPI, MinDensityDPI, MaxDensityDPI)
	}
	if in.Extras != nil && len(in.Extras) != len(in.Nodes) {
		return nil, badInput("%d node extras for %d nodes", len(in.Extras), len(in.Nodes))
	}
	s := &screen{
		nodes:    in.Nodes,
		extras:   in.Extras,
		parent:   make([]int, len(in.Nodes)),
		children: make([][]int, len(in.Nodes)),
		density:  float64(in.DensityDPI) / 160,
		width:    in.Width,
		height:   in.Height,
		covered:  append([]capture.Bounds(nil), in.Covered...),
	}
	if s.extras == nil {
		s.extras = make([]Extra, len(in.Nodes))
		for i := range in.Nodes {
			n := &in.Nodes[i]
			s.extras[i] = Extra{Focusable: n.Clickable || n.Checkable || n.Editable, HasText: n.Text != ""}
		}
	}
	byUID := make(map[string]int, len(in.Nodes))
	maxRight, maxBottom := 0, 0
	for i := range in.Nodes {
		n := &in.Nodes[i]
		if n.UID == "" {
			return nil, badInput("node %d has no uid", i)
		}
		if _, dup := byUID[n.UID]; dup {
			return nil, badInput("two nodes share the uid %s", quoteLabel(n.UID))
		}
		byUID[n.UID] = i
		b := n.Bounds
		if b.Right < b.Left || b.Bottom < b.Top {
			return nil, badInput("node %s has negative size: [%d,%d][%d,%d]", quoteLabel(n.UID), b.Left, b.Top, b.Right, b.Bottom)
		}
		maxRight, maxBottom = max(maxRight, b.Right), max(maxBottom, b.Bottom)
	}
	if in.Pixels != nil {
		pr := in.Pixels.Bounds()
		if s.width == 0 && s.height == 0 {
			s.width, s.height = pr.Dx(), pr.Dy()
		} else if pr.Dx() != s.width || pr.Dy() != s.height {
			return nil, badInput("the screenshot is %dx%d, the screen %dx%d", pr.Dx(), pr.Dy(), s.width, s.height)
		}
		s.pixels = newPixelReader(in.Pixels)
	}
	if s.width == 0 && s.height == 0 {
		s.width, s.height = maxRight, maxBottom
	}
	if s.width <= 0 || s.height <= 0 {
		return nil, badInput("the screen has no size: every node is empty")
	}
	for i := range in.Nodes {
		n := &in.Nodes[i]
		b := n.Bounds
		// uiautomator writes visible bounds, so a node wholly off the screen means the
		// tree and the screen (or screenshot) are not of the same moment; a node that
		// only crosses the edge is clipped to it by the checks that measure.
		if !empty(b) && (b.Right <= 0 || b.Bottom <= 0 || b.Left >= s.width || b.Top >= s.height) {
			what := "screen"
			if in.Pixels != nil {
				what = "screenshot (is it of another screen?)"
			}
			return nil, badInput("node %s at [%d,%d][%d,%d] lies outside the %dx%d %s",
				quoteLabel(n.UID), b.Left, b.Top, b.Right, b.Bottom, s.width, s.height, what)
		}
		s.parent[i] = -1
		if n.ParentUID == "" {
			// A dump that merges windows holds the keyboard as a root of its own;
			// what lies under it is not what the screenshot shows.
			if imePackages[n.Package] && !empty(b) {
				s.covered = append(s.covered, b)
			}
			continue
		}
		p, ok := byUID[n.ParentUID]
		if !ok || p >= i {
			return nil, badInput("node %s names parent %s, which does not come before it", quoteLabel(n.UID), quoteLabel(n.ParentUID))
		}
		s.parent[i] = p
		s.children[p] = append(s.children[p], i)
	}
	return s, nil
}

func empty(b capture.Bounds) bool { return b.Right <= b.Left || b.Bottom <= b.Top }

// visible follows ATF's isVisibleToUser for a dump: uiautomator writes only nodes
// visible to the user, so a node is visible unless it has no area or the dump says
// visible-to-user="false".
func (s *screen) visible(i int) bool { return !empty(s.nodes[i].Bounds) && !s.extras[i].Hidden }

// dp converts pixels to dp, rounded as ATF's TouchTargetSizeCheck rounds
// (Math.round(px / density)).
func (s *screen) dp(px int) int { return int(math.Floor(float64(px)/s.density + 0.5)) }

// clickable is ATF's "clickable or long-clickable".
func (s *screen) clickable(i int) bool { return s.nodes[i].Clickable || s.extras[i].LongClickable }

// hasClass reports whether a node's class is one of names or ends in ".Name" for
// one of them; a dump gives only the accessibility class, so ATF's checkInstanceOf
// becomes a name match against the widget and its well-known subclasses.
func hasClass(n *capture.Node, names ...string) bool {
	for _, name := range names {
		if n.Class == name {
			return true
		}
	}
	return false
}

// duplicates yields, in the order each key is first seen, every key that two or
// more nodes share with the nodes that share it (in tree order). keyOf says a node's
// key, or false to leave the node out.
func duplicates[K comparable](s *screen, keyOf func(i int) (K, bool)) iter.Seq2[K, []int] {
	groups := map[K][]int{}
	var order []K
	for i := range s.nodes {
		k, ok := keyOf(i)
		if !ok {
			continue
		}
		if _, seen := groups[k]; !seen {
			order = append(order, k)
		}
		groups[k] = append(groups[k], i)
	}
	return func(yield func(K, []int) bool) {
		for _, k := range order {
			if g := groups[k]; len(g) > 1 && !yield(k, g) {
				return
			}
		}
	}
}

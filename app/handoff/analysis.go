package handoff

import (
	"fmt"
	"sort"
	"strings"
)

// Thresholds of the prompt grammar's overlap rule (docs/prompt.md).
const (
	overlapIoSA     = 0.25
	weakLabelDistDp = 24.0
	maxCandidates   = 3
	maxMatched      = 4
	maxEvidence     = 3
	maxNetworkCalls = 3 // per list of the network line
	maxCallRunes    = 120
)

// screenPlan is the render order of one screen: blocks of items, where a
// block of two or more is an overlap group.
type screenPlan struct {
	screen Screen
	blocks []block
}

type block struct {
	group int // overlap group number, 0 for a lone item
	items []*itemPlan
}

// itemPlan carries everything derived about an item before rendering.
type itemPlan struct {
	item        *Item
	screen      *Screen
	overlap     bool
	duplicateOf int // sequence number of the earlier identical marker, or 0
	instance    int // 1-based, 0 when not in an instance group
	instances   int
	collision   int // >0 on the first item of an instance group: its size
}

// plan groups the selected items by screen, in order of their first item,
// and derives overlap groups, instance groups and duplicates.
func plan(s *Session, opts Options) []screenPlan {
	want := map[string]bool{}
	for _, id := range opts.ItemIDs {
		want[id] = true
	}
	var items []*Item
	for i := range s.Items {
		if len(want) == 0 || want[s.Items[i].ID] {
			items = append(items, &s.Items[i])
		}
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].Sequence < items[j].Sequence })
	screens := map[string]*Screen{}
	for i := range s.Screens {
		screens[s.Screens[i].ID] = &s.Screens[i]
	}
	var order []string
	byScreen := map[string][]*itemPlan{}
	for _, it := range items {
		sc, ok := screens[it.ScreenID]
		if !ok {
			sc = &Screen{ID: it.ScreenID, DisplayName: "unsaved screen"}
			screens[it.ScreenID] = sc
		}
		if _, seen := byScreen[it.ScreenID]; !seen {
			order = append(order, it.ScreenID)
		}
		byScreen[it.ScreenID] = append(byScreen[it.ScreenID], &itemPlan{item: it, screen: sc})
	}
	var out []screenPlan
	group := 0
	for _, id := range order {
		ps := byScreen[id]
		markDuplicates(ps)
		markInstances(ps)
		sp := screenPlan{screen: *screens[id]}
		for _, members := range overlapComponents(ps, screens[id].Density) {
			if len(members) == 1 {
				sp.blocks = append(sp.blocks, block{items: members})
				continue
			}
			group++
			for _, m := range members {
				m.overlap = true
			}
			sp.blocks = append(sp.blocks, block{group: group, items: members})
		}
		out = append(out, sp)
	}
	return out
}

func topLocation(it *Item) string {
	if len(it.Candidates) == 0 {
		return ""
	}
	return fmt.Sprintf("%s:%d", it.Candidates[0].File, it.Candidates[0].Line)
}

func pathLeaf(p string) string {
	if i := strings.LastIndexAny(p, "/."); i >= 0 {
		return p[i+1:]
	}
	return p
}

// markDuplicates flags items identical to an earlier one: same top source,
// testTag, path leaf and bounds.
func markDuplicates(ps []*itemPlan) {
	for j, b := range ps {
		for _, a := range ps[:j] {
			ia, ib := a.item, b.item
			if a.duplicateOf == 0 && ia.Target.Kind == ib.Target.Kind && topLocation(ia) == topLocation(ib) &&
				ia.Target.Tag == ib.Target.Tag && pathLeaf(ia.Target.Path) == pathLeaf(ib.Target.Path) &&
				ia.Target.Box == ib.Target.Box {
				b.duplicateOf = ia.Sequence
				break
			}
		}
	}
}

// markInstances numbers items that share a call site and testTag (a widget
// rendered by a list), by the string order of their tree path leaves.
func markInstances(ps []*itemPlan) {
	groups := map[string][]*itemPlan{}
	var keys []string
	for _, p := range ps {
		loc := topLocation(p.item)
		if loc == "" || p.duplicateOf != 0 || p.item.Target.Kind == TargetScreen {
			continue
		}
		k := loc + "|" + p.item.Target.Tag
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], p)
	}
	for _, k := range keys {
		g := groups[k]
		if len(g) < 2 {
			continue
		}
		g[0].collision = len(g) // ps is in sequence order: g[0] renders first
		sorted := append([]*itemPlan(nil), g...)
		sort.SliceStable(sorted, func(i, j int) bool {
			return pathLeaf(sorted[i].item.Target.Path) < pathLeaf(sorted[j].item.Target.Path)
		})
		for i, p := range sorted {
			p.instance, p.instances = i+1, len(g)
		}
	}
}

func weakLabel(t Target) bool {
	return t.Kind == TargetArea || (t.Tag == "" && t.Text == "" && t.ContentDescription == "")
}

func area(b Box) float64 {
	w, h := b.Right-b.Left, b.Bottom-b.Top
	if w <= 0 || h <= 0 {
		return 0
	}
	return float64(w) * float64(h)
}

// overlaps applies the grammar's rule: visual-area intersection over the smaller
// area ≥ 0.25, or weak-label centres within 24 dp.
func overlaps(a, b Target, density float64) bool {
	if a.Kind == TargetScreen || b.Kind == TargetScreen {
		return false
	}
	if a.Kind == TargetArea || b.Kind == TargetArea {
		in := Box{max(a.Box.Left, b.Box.Left), max(a.Box.Top, b.Box.Top), min(a.Box.Right, b.Box.Right), min(a.Box.Bottom, b.Box.Bottom)}
		small := min(area(a.Box), area(b.Box))
		if small > 0 && area(in)/small >= overlapIoSA {
			return true
		}
	}
	if weakLabel(a) || weakLabel(b) {
		if density <= 0 {
			density = 1
		}
		dx := float64(a.Box.Left+a.Box.Right-b.Box.Left-b.Box.Right) / 2
		dy := float64(a.Box.Top+a.Box.Bottom-b.Box.Top-b.Box.Bottom) / 2
		lim := weakLabelDistDp * density
		return dx*dx+dy*dy <= lim*lim
	}
	return false
}

// overlapComponents splits a screen's items into connected overlap
// components, ordered by their first item; members stay in sequence order.
func overlapComponents(ps []*itemPlan, density float64) [][]*itemPlan {
	parent := make([]int, len(ps))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		if parent[i] != i {
			parent[i] = find(parent[i])
		}
		return parent[i]
	}
	for i := range ps {
		for j := i + 1; j < len(ps); j++ {
			if overlaps(ps[i].item.Target, ps[j].item.Target, density) {
				parent[find(j)] = find(i)
			}
		}
	}
	var out [][]*itemPlan
	at := map[int]int{}
	for i, p := range ps {
		r := find(i)
		k, ok := at[r]
		if !ok {
			k = len(out)
			at[r] = k
			out = append(out, nil)
		}
		out[k] = append(out[k], p)
	}
	return out
}

// sourceRoot returns the directory-boundary prefix shared by every rendered
// candidate path, when at least two distinct paths share ≥ 10 characters.
func sourceRoot(plans []screenPlan) string {
	seen := map[string]bool{}
	var paths []string
	for _, sp := range plans {
		for _, b := range sp.blocks {
			for _, p := range b.items {
				for i, c := range p.item.Candidates {
					if i < maxCandidates && !seen[c.File] {
						seen[c.File] = true
						paths = append(paths, c.File)
					}
				}
			}
		}
	}
	if len(paths) < 2 {
		return ""
	}
	prefix := paths[0]
	for _, p := range paths[1:] {
		n := 0
		for n < len(prefix) && n < len(p) && prefix[n] == p[n] {
			n++
		}
		prefix = prefix[:n]
	}
	cut := strings.LastIndex(prefix, "/")
	if cut < 0 {
		return ""
	}
	prefix = prefix[:cut+1]
	if len(prefix) < 10 {
		return ""
	}
	return prefix
}

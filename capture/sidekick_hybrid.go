package capture

import (
	"math"
	"strconv"
)

// TreeFromHybrid: a screen that mixes Views and Compose; the sidekick gave the
// Compose parts, uiautomator the Views around them.
const TreeFromHybrid = "sidekick+uiautomator"

// hybridCover is the share of the app's window the Compose roots must cover for the
// sidekick's tree to stand for the whole screen. Upstream inspects Compose roots
// only (ComposeRootFinder.kt at v1.5.0): below this share, Views take the rest.
const hybridCover = 0.9

// composeAreas are the Compose roots in screen pixels, and whether they leave part
// of the app's window to Views (a hybrid screen). With no window in the state the
// screen cannot be judged and counts as all Compose.
func composeAreas(insp *SidekickInspection, state ScreenState, pkg string) (areas []Bounds, hybrid bool) {
	w := appWindow(state, pkg)
	offX, offY := 0, 0
	if w != nil {
		offX, offY = w.Bounds.Left, w.Bounds.Top
	}
	var covered int64
	for _, r := range insp.Roots {
		b := r.BoundsInWindow
		a := Bounds{Left: offX + int(math.Floor(b.Left)), Top: offY + int(math.Floor(b.Top)),
			Right: offX + int(math.Ceil(b.Right)), Bottom: offY + int(math.Ceil(b.Bottom))}
		if w != nil {
			a = a.Intersect(w.Bounds)
		}
		if !a.Empty() {
			areas = append(areas, a)
			covered += a.Area()
		}
	}
	if w == nil || w.Bounds.Empty() {
		return areas, false
	}
	// An app that does not draw under the system bars has its content, and so its
	// Compose root, between them: only the rest of the window is the app's to fill.
	usable := w.Bounds.Area()
	for _, bar := range state.Windows {
		if bar.Visible && (bar.Type == WindowStatusBar || bar.Type == WindowNavigationBar) {
			usable -= bar.Bounds.Intersect(w.Bounds).Area()
		}
	}
	return areas, float64(covered) < hybridCover*float64(usable)
}

// combineHybrid puts the sidekick's Compose nodes into uiautomator's tree of a
// hybrid screen: uiautomator's nodes inside a Compose root are dropped (the sidekick
// describes them better: test tags, roles, merged semantics), and the sidekick's
// top nodes of that root hang under the deepest remaining node that holds the
// root (its ComposeView). The result is renumbered in document order.
func combineHybrid(compose []Node, areas []Bounds, ui []Node) []Node {
	inside := func(b Bounds) bool {
		for _, a := range areas {
			if b.Left >= a.Left && b.Top >= a.Top && b.Right <= a.Right && b.Bottom <= a.Bottom && b != a {
				return true
			}
		}
		return false
	}
	type item struct {
		n      Node
		parent int
	}
	var items []item
	index := map[string]int{} // uiautomator UID → index in items
	for _, n := range ui {
		if inside(n.Bounds) {
			continue
		}
		p, ok := index[n.ParentUID]
		if !ok {
			p = -1
		}
		index[n.UID] = len(items)
		items = append(items, item{n, p})
	}
	// anchor: the deepest kept node whose bounds hold the area.
	anchor := func(a Bounds) int {
		best := -1
		for i, it := range items {
			b := it.n.Bounds
			if b.Left <= a.Left && b.Top <= a.Top && b.Right >= a.Right && b.Bottom >= a.Bottom {
				best = i // document order: a later holder is deeper
			}
		}
		return best
	}
	skIndex := map[string]int{}
	for _, n := range compose {
		p, ok := skIndex[n.ParentUID]
		if !ok {
			p = -1
			for _, a := range areas {
				if n.Bounds.Intersect(a) != (Bounds{}) || n.Bounds.Empty() {
					p = anchor(a)
					break
				}
			}
		}
		skIndex[n.UID] = len(items)
		items = append(items, item{n, p})
	}
	kids := map[int][]int{}
	var tops []int
	for i, it := range items {
		if it.parent < 0 {
			tops = append(tops, i)
		} else {
			kids[it.parent] = append(kids[it.parent], i)
		}
	}
	out := make([]Node, 0, len(items))
	var walk func(list []int, prefix, parentUID string)
	walk = func(list []int, prefix, parentUID string) {
		for k, i := range list {
			path := strconv.Itoa(k)
			if prefix != "" {
				path = prefix + "." + path
			}
			n := items[i].n
			n.IndexPath, n.UID, n.ParentUID = path, uidFor(path), parentUID
			out = append(out, n)
			walk(kids[i], path, n.UID)
		}
	}
	walk(tops, "", "")
	return out
}

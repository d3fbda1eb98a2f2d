package source

import "strings"

// What an Activity shows: the files reachable from its class through the
// layouts it inflates (and their <include>s, menus and nav graphs), the
// fragments, preference screens and custom views those name, the classes and
// composables its code constructs or calls (setContent { App() } → App →
// its screens), and, for settings screens, addPreferencesFromResource /
// setPreferencesFromResource(R.xml.x). Other Activities are not entered: they
// are separate screens, started rather than shown.

// maxReachDepth bounds the walk; a settings chain (activity → root
// preferences → a fragment → its preferences) is about six steps.
const maxReachDepth = 8

// reachable returns the files an Activity (simple name) shows, or nil when no
// class of that name is indexed. Results are cached until the index changes;
// callers hold the read lock.
func (idx *Index) reachable(act string) map[*FileIndex]bool {
	idx.reachMu.Lock()
	defer idx.reachMu.Unlock()
	if r, ok := idx.reachCache[act]; ok {
		return r
	}
	// The activity's class and its own base classes (BaseActivity, …).
	var start []*FileIndex
	allowed := map[string]bool{act: true}
	for name, depth := act, 0; name != "" && depth < 4; depth++ {
		next := ""
		for _, fi := range idx.classFiles[name] {
			if fi.isTest() {
				continue
			}
			start = append(start, fi)
			for _, a := range fi.Activities {
				if a.Name == name && !activityBases[a.Base] {
					next = a.Base
				}
			}
		}
		name = next
		if name != "" {
			allowed[name] = true
		}
	}
	var seen map[*FileIndex]bool
	if len(start) > 0 {
		seen = map[*FileIndex]bool{}
		frontier := start
		for _, fi := range start {
			seen[fi] = true
		}
		for depth := 0; depth < maxReachDepth && len(frontier) > 0; depth++ {
			var next []*FileIndex
			visit := func(fi *FileIndex) {
				if !seen[fi] && !fi.isTest() {
					seen[fi] = true
					next = append(next, fi)
				}
			}
			for _, fi := range frontier {
				idx.neighbours(fi, allowed, visit)
			}
			frontier = next
		}
	}
	if idx.reachCache == nil {
		idx.reachCache = map[string]map[*FileIndex]bool{}
	}
	idx.reachCache[act] = seen
	return seen
}

// neighbours calls visit for every file fi leads to.
func (idx *Index) neighbours(fi *FileIndex, allowed map[string]bool, visit func(*FileIndex)) {
	for _, e := range fi.Entries {
		switch e.Kind {
		case kindLayoutRef:
			for _, l := range idx.layoutFiles[e.Key] {
				visit(l)
			}
		case kindClassRef:
			idx.visitClass(e.Key, allowed, visit)
		}
	}
	for _, name := range fi.Refs {
		idx.visitClass(name, allowed, visit)
		for _, p := range idx.defs[name] {
			visit(p.file)
		}
	}
}

// visitClass visits the files declaring class name, unless it is another
// Activity than the one walked from (or its bases).
func (idx *Index) visitClass(name string, allowed map[string]bool, visit func(*FileIndex)) {
	if !allowed[name] && strings.HasSuffix(name, "Activity") {
		return
	}
	for _, f := range idx.classFiles[name] {
		visit(f)
	}
}

package source

import (
	"fmt"
	"path"
	"sort"
	"strings"
)

// maxUsages caps the code lines listed for one layout candidate.
const maxUsages = 6

// viewIDHits finds the layout elements declaring a resource-id, and the code
// reaching it, as hits carrying tok.
func (idx *Index) viewIDHits(rid, tok string) []hit {
	key := resourceIDKey(rid)
	if key == "" || key == "android:" {
		return nil
	}
	var hits []hit
	w := viewIDWeight
	if strings.HasPrefix(key, "android:") {
		// android:id/title, /summary, /text1, /alertTitle: the framework's
		// standard slots (every preference row, list item and dialog), which
		// an app layout may redeclare; weak evidence for any one layout.
		w = frameworkIDWeight
	}
	for _, p := range idx.byKey[refKey{kindViewID, key}] {
		e := p.file.Entries[p.n]
		hits = append(hits, hit{p.file, e.Line, e.Owner, tok, w, nil})
	}
	for _, p := range idx.byKey[refKey{kindIDRef, key}] {
		e := p.file.Entries[p.n]
		hits = append(hits, hit{p.file, e.Line, e.Owner, tok, viewIDRefWeight, nil})
	}
	return hits
}

// layoutOwners returns the code references that inflate a layout or menu
// file, directly or through layouts that <include> it, app code before tests
// and then in path order. Callers hold the read lock.
func (idx *Index) layoutOwners(fi *FileIndex) []posting {
	var out []posting
	seen := map[string]bool{}
	var walk func(key string, depth int)
	walk = func(key string, depth int) {
		if seen[key] || depth > 4 {
			return
		}
		seen[key] = true
		for _, p := range idx.byKey[refKey{kindLayoutRef, key}] {
			if p.file.Layout != "" {
				walk(p.file.Layout, depth+1) // an <include> in another layout
				continue
			}
			out = append(out, p)
		}
	}
	walk(fi.Layout, 0)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.file.isTest() != b.file.isTest() {
			return !a.file.isTest()
		}
		if a.file.Path != b.file.Path {
			return a.file.Path < b.file.Path
		}
		return a.n < b.n
	})
	return out
}

// otherViewID reports whether the layout element at line declares a view id
// other than key; a custom view element (whose inner views carry their own
// ids) never does.
func otherViewID(fi *FileIndex, line int32, key string) bool {
	other := false
	for _, e := range fi.Entries {
		if e.Line != line {
			continue
		}
		switch {
		case e.Kind == kindClassRef:
			return false
		case e.Kind == kindViewID && e.Key == key:
			return false
		case e.Kind == kindViewID:
			other = true
		}
	}
	return other
}

// selfInflated reports whether a layout is only ever inflated by a view into
// itself (a custom view's content).
func (idx *Index) selfInflated(fi *FileIndex) bool {
	refs := idx.byKey[refKey{kindLayoutRef, fi.Layout}]
	for _, p := range refs {
		if p.file.Entries[p.n].Ctx != selfRoot {
			return false
		}
	}
	return len(refs) > 0
}

// viewOwner fills a candidate's owner for View code: a layout candidate is
// owned by the class and function that inflate the layout (OwnerFile and
// OwnerLine point at that call) and lists the code reaching its view id; a
// code candidate on a layout or view-id reference names its enclosing class
// and function.
func (idx *Index) viewOwner(c *Candidate, l *loc) {
	if l.owner >= 0 {
		return
	}
	if l.file.Layout == "" {
		for _, e := range l.file.Entries {
			if e.Line == l.line && (e.Kind == kindIDRef || e.Kind == kindLayoutRef) && e.Value != "" {
				c.Owner = e.Value
				return
			}
		}
		return
	}
	owners := idx.layoutOwners(l.file)
	if len(owners) > 0 {
		o := owners[0]
		e := o.file.Entries[o.n]
		c.Owner = e.Value
		if c.Owner == "" {
			c.Owner = strings.TrimSuffix(path.Base(o.file.Path), path.Ext(o.file.Path))
		}
		c.OwnerFile, c.OwnerLine = o.file.Path, int(e.Line)
	}
	ownerFiles := map[*FileIndex]bool{}
	for _, o := range owners {
		ownerFiles[o.file] = true
	}
	type site struct {
		file string
		line int32
	}
	var first, rest []site
	seen := map[site]bool{}
	for _, e := range l.file.Entries {
		if e.Line != l.line || e.Kind != kindViewID {
			continue
		}
		for _, p := range idx.byKey[refKey{kindIDRef, e.Key}] {
			s := site{p.file.Path, p.file.Entries[p.n].Line}
			if seen[s] || p.file.isTest() {
				continue
			}
			seen[s] = true
			if ownerFiles[p.file] {
				first = append(first, s)
			} else {
				rest = append(rest, s)
			}
		}
	}
	// Code outside the owners only counts when no owner reaches the view:
	// ids such as "title" recur across unrelated layouts.
	if len(first) == 0 {
		first = rest
	}
	sort.Slice(first, func(i, j int) bool {
		if first[i].file != first[j].file {
			return first[i].file < first[j].file
		}
		return first[i].line < first[j].line
	})
	for i, s := range first {
		if i == maxUsages {
			break
		}
		c.Usages = append(c.Usages, fmt.Sprintf("%s:%d", s.file, s.line))
	}
}

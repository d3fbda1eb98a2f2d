package source

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// loc is one candidate location being scored.
type loc struct {
	file    *FileIndex
	line    int32
	owner   int32
	signals map[string]float64 // best weight per query field ("text", "cd", "tag", …)
	tokens  []string
	score   float64
	res     *posting
}

func (l *loc) addToken(t string) {
	for _, x := range l.tokens {
		if x == t {
			return
		}
	}
	l.tokens = append(l.tokens, t)
}

// Match ranks source locations for a selected target. It returns at most ten
// candidates, best first, or nil when nothing in the project matches.
func (idx *Index) matchProject(q Query) []Candidate {
	locs := map[string]*loc{}
	get := func(h hit) *loc {
		key := fmt.Sprintf("%s:%d", h.file.Path, h.line)
		l, ok := locs[key]
		if !ok {
			l = &loc{file: h.file, line: h.line, owner: h.owner, signals: map[string]float64{}}
			locs[key] = l
		}
		return l
	}
	type field struct {
		name string
		hits []hit
	}
	var fields []field
	add := func(name, value string, sg signal) {
		if strings.TrimSpace(value) == "" {
			return
		}
		hs := idx.lookup(value, sg)
		if sg.ctx == kindTag {
			hs = append(hs, idx.convention(value)...)
		}
		fields = append(fields, field{name, hs})
	}
	add("text", q.Text, signal{ctx: kindText, direct: TokText})
	add("cd", q.ContentDescription, signal{ctx: kindCD, direct: TokCD})
	add("tag", q.TestTag, signal{ctx: kindTag, direct: TokTag})
	if strings.TrimSpace(q.ResourceID) != "" {
		fields = append(fields, field{"rid", idx.viewIDHits(q.ResourceID, TokResourceID)})
	}
	for _, f := range fields {
		for _, h := range f.hits {
			l := get(h)
			if h.weight > l.signals[f.name] {
				l.signals[f.name] = h.weight
			}
			l.addToken(h.token)
			if h.res != nil {
				l.res = h.res
			}
		}
	}
	// Corroboration: a second selected field matching elsewhere in the same
	// composable supports this location too.
	for _, l := range locs {
		if l.owner < 0 {
			continue
		}
		for _, f := range fields {
			if _, ok := l.signals[f.name]; ok {
				continue
			}
			for _, h := range f.hits {
				if h.file == l.file && h.owner == l.owner {
					l.signals[f.name] = math.Max(l.signals[f.name], h.weight*corroboration)
					l.addToken(h.token)
				}
			}
		}
	}
	idx.nearby(q, locs, get)
	ridKey := ""
	if strings.TrimSpace(q.ResourceID) != "" {
		ridKey = resourceIDKey(q.ResourceID)
	}
	for _, l := range locs {
		if ridKey != "" && l.file.Layout != "" && otherViewID(l.file, l.line, ridKey) {
			for _, f := range []string{"text", "cd"} {
				if w, ok := l.signals[f]; ok {
					l.signals[f] = w * otherIDPenalty
				}
			}
		}
		for _, w := range l.signals {
			l.score += w
		}
		if l.file.Layout != "" && idx.selfInflated(l.file) {
			l.score *= selfLayoutPenalty
		}
	}
	idx.roleAndActivity(q, locs)
	for _, l := range locs {
		if l.file.isTest() {
			l.score *= testPenalty
		}
		if l.owner >= 0 && l.file.Defs[l.owner].Preview {
			l.score *= previewPenalty
		}
	}
	return idx.rank(locs)
}

// nearby applies nearby-node evidence: a boost for locations in the same
// composable (or file); when the selected node matched nothing, nearby
// matches become low-weight candidates themselves.
func (idx *Index) nearby(q Query, locs map[string]*loc, get func(hit) *loc) {
	if len(q.Nearby) == 0 {
		return
	}
	own := len(locs) > 0
	boost := map[*loc]float64{}
	for _, n := range q.Nearby {
		var hits []hit
		for _, f := range []struct {
			v  string
			sg signal
		}{
			{n.Text, signal{ctx: kindText, direct: TokNearbyText, nearby: true}},
			{n.ContentDescription, signal{ctx: kindCD, direct: TokNearbyCD, nearby: true}},
			{n.TestTag, signal{ctx: kindTag, direct: TokNearbyTag, nearby: true}},
		} {
			if strings.TrimSpace(f.v) != "" {
				hits = append(hits, idx.lookup(f.v, f.sg)...)
			}
		}
		if strings.TrimSpace(n.ResourceID) != "" {
			hits = append(hits, idx.viewIDHits(n.ResourceID, TokNearbyResID)...)
		}
		if !own {
			for _, h := range hits {
				l := get(h)
				l.signals["nearby"] = math.Max(l.signals["nearby"], h.weight*nearbyOnlyWeight)
				l.addToken(h.token)
			}
			continue
		}
		for _, l := range locs {
			best, tok := 0.0, ""
			for _, h := range hits {
				if h.file != l.file {
					continue
				}
				w := nearbySameFile
				// A layout file is one screen or item, like one composable.
				if l.owner >= 0 && h.owner == l.owner || l.file.Layout != "" {
					w = nearbySameOwner
				}
				if w > best {
					best, tok = w, h.token
				}
			}
			if best > 0 {
				boost[l] += best
				l.addToken(tok)
			}
		}
	}
	for l, b := range boost {
		l.signals["nearby"] = math.Min(b, maxNearbyBoost)
	}
}

// roleAndActivity adds the small boosts: Role.X set in the same composable,
// and locations next to the activity the screen was captured in.
func (idx *Index) roleAndActivity(q Query, locs map[string]*loc) {
	role := strings.ToLower(strings.TrimSpace(q.Role))
	if role == "textfield" || role == "edittext" {
		role = ""
	}
	act := q.Activity
	if i := strings.LastIndexAny(act, "./"); i >= 0 {
		act = act[i+1:]
	}
	var actDirs []string
	var shows map[*FileIndex]bool
	if act != "" {
		shows = idx.reachable(act)
		for _, fi := range idx.files {
			for _, a := range fi.Activities {
				if a.Name == act {
					actDirs = append(actDirs, filepath.ToSlash(filepath.Dir(fi.Path))+"/")
				}
			}
		}
	}
	for _, l := range locs {
		if role != "" && l.owner >= 0 {
			for _, e := range l.file.Entries {
				if e.Kind == kindRole && e.Owner == l.owner && strings.ToLower(e.Value) == role {
					l.score += roleBoost
					l.addToken(TokRole)
					break
				}
			}
		}
		if shows[l.file] {
			l.score += layoutActivityBoost
			l.addToken(TokActivity)
			continue
		}
		for _, d := range actDirs {
			if strings.HasPrefix(l.file.Path, d) {
				l.score += activityBoost
				l.addToken(TokActivity)
				break
			}
		}
	}
}

// rank orders locations and turns them into candidates.
func (idx *Index) rank(locs map[string]*loc) []Candidate {
	if len(locs) == 0 {
		return nil
	}
	list := make([]*loc, 0, len(locs))
	for _, l := range locs {
		list = append(list, l)
	}
	sort.Slice(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if a.score != b.score {
			return a.score > b.score
		}
		if (a.owner >= 0) != (b.owner >= 0) {
			return a.owner >= 0
		}
		if qa, qb := a.file.Layout != "" && qualifiedLayout(a.file.Path), b.file.Layout != "" && qualifiedLayout(b.file.Path); qa != qb {
			return qb // the default layout before its -land/-v21 variants
		}
		if a.file.Path != b.file.Path {
			return a.file.Path < b.file.Path
		}
		return a.line < b.line
	})
	if len(list) > maxCandidates {
		list = list[:maxCandidates]
	}
	out := make([]Candidate, len(list))
	for i, l := range list {
		next := 0.0
		if i+1 < len(list) {
			next = list[i+1].score
		}
		c := Candidate{
			File: l.file.Path, Line: int(l.line), Score: round2(l.score),
			Margin: round2(l.score - next), Matched: l.tokens,
		}
		c.Confidence = confidence(l.score, l.score-next, i)
		if l.owner >= 0 {
			d := l.file.Defs[l.owner]
			c.Owner, c.OwnerFile, c.OwnerLine = d.Name, l.file.Path, int(d.Line)
			c.CallSites = idx.callSites(d.Name)
			if len(c.CallSites) >= 2 {
				c.Caution = fmt.Sprintf("SHARED_COMPONENT: %s is used at %d call sites; a change inside it changes all of them", d.Name, len(c.CallSites))
			}
		}
		idx.viewOwner(&c, l)
		if l.res != nil {
			c.ResourceFile = l.res.file.Path
			c.ResourceLine = int(l.res.file.Entries[l.res.n].Line)
		}
		c.Stale = idx.stale(l)
		out[i] = c
	}
	return out
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }

// confidence grades a candidate: high needs strong evidence and a clear lead.
func confidence(score, lead float64, rank int) string {
	switch {
	case rank == 0 && score >= 1.0 && lead >= 0.25:
		return "high"
	case score >= 0.6:
		return "medium"
	default:
		return "low"
	}
}

// callSites lists where a composable is called from, outside tests, when it
// is called from two or more places.
func (idx *Index) callSites(name string) []string {
	var sites []string
	for _, p := range idx.calls[name] {
		if p.file.isTest() {
			continue
		}
		c := p.file.Calls[p.n]
		if c.Owner >= 0 && p.file.Defs[c.Owner].Preview {
			continue
		}
		sites = append(sites, fmt.Sprintf("%s:%d", p.file.Path, c.Line))
	}
	if len(sites) < 2 {
		return nil
	}
	sort.Strings(sites)
	return sites
}

// stale reports whether the candidate's line no longer reads as indexed.
func (idx *Index) stale(l *loc) bool {
	p := filepath.Join(idx.root, filepath.FromSlash(l.file.Path))
	st, err := os.Stat(p)
	if err != nil {
		return true
	}
	if st.ModTime().UnixNano() == l.file.ModTime && st.Size() == l.file.Size {
		return false
	}
	src, err := os.ReadFile(p)
	if err != nil {
		return true
	}
	var want uint32
	for _, e := range l.file.Entries {
		if e.Line == l.line {
			want = e.LineHash
			break
		}
	}
	if want == 0 {
		return false // a definition line; nothing recorded to compare
	}
	return hashLine(lineText(src, lineStarts(src), int(l.line))) != want
}

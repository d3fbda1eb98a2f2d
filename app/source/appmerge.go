package source

import (
	"slices"
	"sort"
	"strings"
)

// SetAppIndex gives the index the installed app's own source index (nil drops it).
// From then on Match also ranks the app's entries: a location both indexes find is
// reported once, at the project folder's current line, as FromBoth; one only the
// app's index knows is re-anchored to the folder's line when the folder holds the
// same file and value, and otherwise keeps the build's line (FromApp). With no
// project folder at all the app's index alone gives candidates.
func (idx *Index) SetAppIndex(ai *AppIndex) {
	idx.mu.Lock()
	idx.app = ai
	idx.mu.Unlock()
}

// AppIndex is the app's index given with SetAppIndex, nil when none.
func (idx *Index) AppIndex() *AppIndex {
	idx.mu.RLock()
	defer idx.mu.RUnlock()
	return idx.app
}

// Match ranks source locations for q: the project folder's index and, when one was
// given, the app's own (see SetAppIndex). Each candidate says which it came from.
func (idx *Index) Match(q Query) []Candidate {
	idx.mu.RLock()
	defer idx.mu.RUnlock()
	cands := idx.matchProject(q)
	for i := range cands {
		cands[i].Index = FromProject
	}
	if idx.app == nil {
		return cands
	}
	hits := idx.app.match(q)
	if len(hits) == 0 {
		return cands
	}
	for _, h := range hits {
		fi := idx.projectFile(h.e)
		if fi != nil {
			if i := sameOwnerCandidate(cands, fi.Path, h.e.owner(), h.e.Line); i >= 0 {
				c := &cands[i]
				c.Index = FromBoth
				c.Score += appAgreement
				for _, t := range h.tokens {
					if !slices.Contains(c.Matched, t) {
						c.Matched = append(c.Matched, t)
					}
				}
				continue
			}
		}
		c := Candidate{File: h.e.path(), Line: h.e.Line, Score: h.score, Matched: h.tokens, Index: FromApp, Owner: h.e.owner()}
		if fi != nil {
			c.File = fi.Path
			if line, ok := currentLine(fi, h.e); ok {
				c.Line, c.Index = line, FromBoth
			}
		}
		if c.Owner != "" {
			c.OwnerFile = c.File
		}
		cands = append(cands, c)
	}
	return rerank(cands)
}

// appAgreement is what the app's index adds to a project candidate it also found:
// the installed build really contained that code.
const appAgreement = 0.05

// projectFile is the project's file an app entry names: its repository path, or a
// project path ending in its module path.
func (idx *Index) projectFile(e *AppEntry) *FileIndex {
	if fi := idx.files[e.RepoFile]; fi != nil && e.RepoFile != "" {
		return fi
	}
	if fi := idx.files[e.File]; fi != nil {
		return fi
	}
	if e.RepoFile == "" && e.File != "" {
		for p, fi := range idx.files {
			if strings.HasSuffix(p, "/"+e.File) {
				return fi
			}
		}
	}
	return nil
}

// sameOwnerCandidate finds the project candidate in file that belongs to the same
// composable as the app's entry (or, with no owner, sits at its line); -1 if none.
func sameOwnerCandidate(cands []Candidate, file, owner string, line int) int {
	for i, c := range cands {
		if c.File != file || c.Index != FromProject {
			continue
		}
		if (owner != "" && c.Owner == owner) || (owner == "" && c.Line == line) {
			return i
		}
	}
	return -1
}

// currentLine finds the app entry's code in the folder's copy of its file: the entry
// in the same composable showing the same text, tag or description, nearest the
// build's line.
func currentLine(fi *FileIndex, e *AppEntry) (int, bool) {
	values := map[string]bool{}
	for _, list := range [][]string{e.Text, e.TestTags, e.ContentDescriptions} {
		for _, v := range list {
			values[normalize(v)] = true
		}
	}
	best, found := 0, false
	for _, en := range fi.Entries {
		if !values[normalize(en.Value)] || en.Value == "" {
			continue
		}
		if owner := e.owner(); owner != "" && (en.Owner < 0 || fi.Defs[en.Owner].Name != owner) {
			continue
		}
		l := int(en.Line)
		if !found || abs(l-e.Line) < abs(best-e.Line) {
			best, found = l, true
		}
	}
	return best, found
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// rerank sorts merged candidates by score and grades them again.
func rerank(cands []Candidate) []Candidate {
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].Score > cands[j].Score })
	if len(cands) > maxCandidates {
		cands = cands[:maxCandidates]
	}
	for i := range cands {
		next := 0.0
		if i+1 < len(cands) {
			next = cands[i+1].Score
		}
		cands[i].Score = round2(cands[i].Score)
		cands[i].Margin = round2(cands[i].Score - next)
		cands[i].Confidence = confidence(cands[i].Score, cands[i].Score-next, i)
	}
	return cands
}

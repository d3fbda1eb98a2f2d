package source

import (
	"strings"
	"unicode"
)

// NearbyNode is a UI node near the selected one; its labels corroborate
// candidates in the same composable.
type NearbyNode struct {
	Text               string `json:"text,omitempty"`
	ContentDescription string `json:"contentDescription,omitempty"`
	TestTag            string `json:"testTag,omitempty"`
	Role               string `json:"role,omitempty"`
	// ResourceID is the uiautomator resource-id ("com.example:id/units_title").
	ResourceID string `json:"resourceId,omitempty"`
}

// Query describes a selected UI target.
type Query struct {
	Text               string `json:"text,omitempty"`
	ContentDescription string `json:"contentDescription,omitempty"`
	TestTag            string `json:"testTag,omitempty"`
	Role               string `json:"role,omitempty"`
	Activity           string `json:"activity,omitempty"`
	// ResourceID is the uiautomator resource-id of a View
	// ("com.example:id/units_title"); it matches android:id in layouts.
	ResourceID string       `json:"resourceId,omitempty"`
	Nearby     []NearbyNode `json:"nearby,omitempty"`
}

// Candidate is one ranked source location for a target.
type Candidate struct {
	File       string   `json:"file"` // relative to the project root, slash-separated
	Line       int      `json:"line"`
	Confidence string   `json:"confidence"` // high | medium | low
	Score      float64  `json:"score"`
	Margin     float64  `json:"margin"` // score gap to the next candidate
	Owner      string   `json:"owner,omitempty"`
	Matched    []string `json:"matched"`
	Stale      bool     `json:"stale,omitempty"`
	Caution    string   `json:"caution,omitempty"`
	CallSites  []string `json:"callSites,omitempty"`
	// OwnerFile/OwnerLine locate the owner's definition (edit-surface hints).
	OwnerFile string `json:"ownerFile,omitempty"`
	OwnerLine int    `json:"ownerLine,omitempty"`
	// ResourceFile/ResourceLine locate the strings.xml value when the match
	// went through stringResource.
	ResourceFile string `json:"resourceFile,omitempty"`
	ResourceLine int    `json:"resourceLine,omitempty"`
	// Usages lists the code lines ("file:line") that reach the view declared
	// at a layout candidate (findViewById(R.id.x), binding.x), those in the
	// inflating owner first.
	Usages []string `json:"usages,omitempty"`
	// Index says which index found it: "project" (the project folder), "app" (the
	// source index the installed build carries; its line is the build's), or
	// "project+app" (both: the line is the folder's, current).
	Index IndexSource `json:"index,omitempty"`
}

// IndexSource is which index found a candidate (Candidate.Index).
type IndexSource string

// Values of Candidate.Index.
const (
	FromProject IndexSource = "project"
	FromApp     IndexSource = "app"
	FromBoth    IndexSource = "project+app"
)

// IndexSources lists every IndexSource.
var IndexSources = []IndexSource{FromProject, FromApp, FromBoth}

// Reason tokens of the handoff contract.
const (
	TokText          = "text"
	TokCD            = "contentDescription"
	TokTag           = "tag"
	TokCompTag       = "compTag"
	TokRole          = "role"
	TokResolvedRes   = "resolvedStringRes"
	TokNearbyText    = "nearbyText"
	TokNearbyCD      = "nearbyContentDescription"
	TokNearbyTag     = "nearbyTag"
	TokNearbyRole    = "nearbyRole"
	TokActivity      = "activity"
	TokStringRes     = "stringRes"
	TokLiteral       = "literal"
	TokResourceID    = "resourceId"
	TokNearbyResID   = "nearbyResourceId"
	maxCandidates    = 10
	nearbySameOwner  = 0.25
	nearbySameFile   = 0.08
	maxNearbyBoost   = 0.6
	corroboration    = 0.3
	roleBoost        = 0.15
	activityBoost    = 0.05
	testPenalty      = 0.3
	previewPenalty   = 0.6
	nearbyOnlyWeight = 0.4
	// A layout element with the selected view's android:id is as specific as
	// a testTag; code reaching that id (findViewById, binding.x) is weaker,
	// since text or state set there may belong to another view.
	viewIDWeight    = 1.2
	viewIDRefWeight = 0.6
	// layoutTextWeight: android:text="@string/x" in a layout shows exactly
	// that string on that view, unlike R.string.x in code, which may feed a
	// dialog or a toast.
	layoutTextWeight = 1.0
	// layoutActivityBoost: the selected screen's Activity shows the file (it
	// inflates the layout, hosts the fragment, calls the composable).
	layoutActivityBoost = 0.15
	// stringDefWeight: a strings.xml line matching the text; below any use
	// (stringDefUsedWeight) once a use exists. localizedPenalty keeps a
	// values-xx/ file below the default values/ one.
	stringDefWeight     = 0.45
	stringDefUsedWeight = 0.3
	localizedPenalty    = 0.9
	// selfLayoutPenalty: a custom view's own layout (inflated into the view
	// itself) is shared by every instance; the instance's attributes in the
	// including layout say what this one shows.
	selfLayoutPenalty = 0.6
	// frameworkIDWeight: a framework id (android:id/title) in an app layout.
	frameworkIDWeight = 0.3
	// otherIDPenalty: text on a layout element whose android:id differs from
	// the selected node's resource-id belongs to another view.
	otherIDPenalty = 0.6
)

// normalize makes screen text and source text comparable: case folded,
// white space collapsed and trimmed, template holes kept.
func normalize(s string) string { return fold(s, false) }

// fold case-folds and collapses white space; keepEdges keeps one leading and
// trailing space, which matters for the literal parts around template holes.
func fold(s string, keepEdges bool) string {
	if s == "" {
		return ""
	}
	if r, ok := foldASCII(s, keepEdges); ok {
		return r
	}
	return foldRunes(s, keepEdges)
}

// foldRunes is fold for any text, rune by rune.
func foldRunes(s string, keepEdges bool) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || r == '\u00a0' {
			space = b.Len() > 0 || keepEdges
			continue
		}
		if r == '\u200b' {
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(unicode.ToLower(r))
	}
	if space && keepEdges {
		b.WriteByte(' ')
	}
	return b.String()
}

// foldASCII is fold for plain ASCII text, the common case, without decoding
// runes; ok is false when s holds anything else.
func foldASCII(s string, keepEdges bool) (string, bool) {
	if r, ok := alreadyFolded(s, keepEdges); ok {
		return r, true // most indexed values: no copy, which a large index loads 200,000 times
	}
	buf := make([]byte, 0, len(s))
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80:
			return "", false
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
			space = len(buf) > 0 || keepEdges
			continue
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		if space {
			buf = append(buf, ' ')
			space = false
		}
		buf = append(buf, c)
	}
	if space && keepEdges {
		buf = append(buf, ' ')
	}
	return string(buf), true
}

// alreadyFolded answers s itself when folding would not change it: ASCII with no
// capital, no white space but single inner spaces, and edges as keepEdges wants.
func alreadyFolded(s string, keepEdges bool) (string, bool) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 0x80 || c >= 'A' && c <= 'Z' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
			return "", false
		case c == ' ' && !keepEdges && (i == 0 || i == len(s)-1):
			return "", false // an edge space folding drops
		case c == ' ' && i+1 < len(s) && s[i+1] == ' ':
			return "", false
		}
	}
	return s, true
}

// templateParts splits a templated value into its normalised literal parts,
// or nil when the parts are too thin to identify anything.
func templateParts(v string) []string {
	raw := strings.Split(v, templateMark)
	parts := make([]string, len(raw))
	total := 0
	for i, p := range raw {
		parts[i] = fold(p, true)
		total += len(strings.TrimSpace(parts[i]))
	}
	if total < 3 {
		return nil
	}
	return parts
}

// templateMatches reports whether t (normalised) fits the template parts:
// first part a prefix, last a suffix, the rest in order in between, with the
// literal parts covering a fair share of t.
func templateMatches(parts []string, t string) bool {
	lit := 0
	for _, p := range parts {
		lit += len(strings.TrimSpace(p))
	}
	if lit*10 < len(t)*2 {
		return false
	}
	first, last := parts[0], parts[len(parts)-1]
	if !strings.HasPrefix(t, strings.TrimLeft(first, " ")) || !strings.HasSuffix(t, strings.TrimRight(last, " ")) {
		return false
	}
	rest := t[len(strings.TrimLeft(first, " ")) : len(t)-len(strings.TrimRight(last, " "))]
	if len(parts) == 1 {
		return false
	}
	for _, p := range parts[1 : len(parts)-1] {
		p = strings.TrimSpace(p)
		i := strings.Index(rest, p)
		if i < 0 {
			return false
		}
		rest = rest[i+len(p):]
	}
	return true
}

// templateScale weighs a template match by how much of the text its literal
// parts spell out: "Session starting in %s minutes" explains "Session
// starting in 5 minutes" better than "%s minutes" does.
func templateScale(parts []string, t string) float64 {
	lit := 0
	for _, p := range parts {
		lit += len(strings.TrimSpace(p))
	}
	cover := min(1, float64(lit)/float64(max(1, len(t))))
	return 0.6 + 0.25*cover
}

// hit is one piece of evidence at one location.
type hit struct {
	file   *FileIndex
	line   int32
	owner  int32
	token  string
	weight float64
	res    *posting // strings.xml value behind a resolvedStringRes hit
}

// signal says which query field a lookup serves and which tokens it yields.
type signal struct {
	ctx    uint8 // kindText, kindCD or kindTag
	direct string
	nearby bool
}

func (sg signal) token(kind uint8) string {
	if kind == sg.ctx {
		return sg.direct
	}
	if sg.nearby {
		return sg.direct // nearby evidence keeps its nearby token whatever the kind
	}
	return TokLiteral
}

// lookup finds every location showing value for the signal.
func (idx *Index) lookup(value string, sg signal) []hit {
	k := normalize(value)
	if k == "" {
		return nil
	}
	var hits []hit
	for _, p := range idx.byValue[k] {
		hits = idx.expand(hits, p, sg, 1)
	}
	for _, tp := range idx.templated {
		if templateMatches(tp.parts, k) {
			hits = idx.expand(hits, tp.posting, sg, templateScale(tp.parts, k))
		}
	}
	return hits
}

// expand turns one matching entry into hits: the entry itself, and for
// resources and constants the code that uses them.
func (idx *Index) expand(hits []hit, p posting, sg signal, scale float64) []hit {
	e := p.file.Entries[p.n]
	at := func(fi *FileIndex, e Entry, tok string, w float64, res *posting) {
		hits = append(hits, hit{fi, e.Line, e.Owner, tok, w * scale, res})
	}
	switch e.Kind {
	case kindText, kindCD, kindTag:
		w := 1.0
		if e.Kind != sg.ctx {
			w = 0.5
		} else if e.Kind == kindTag {
			w = 1.2
		}
		at(p.file, e, sg.token(e.Kind), w, nil)
	case kindLiteral:
		at(p.file, e, pick(sg, TokLiteral), 0.55, nil)
	case kindXMLString:
		uses := idx.byKey[refKey{kindStringRes, e.Key}]
		// The definition is where the words live, not where the screen is:
		// with a use in code or a layout it ranks below every use, and a
		// translation (values-de/) below the default values/.
		w := stringDefWeight
		if len(uses) > 0 {
			w = stringDefUsedWeight
		}
		if localizedValues(p.file.Path) {
			w *= localizedPenalty
		}
		at(p.file, e, pick(sg, TokStringRes), w, nil)
		res := p
		for _, u := range uses {
			ue := u.file.Entries[u.n]
			w := 0.95
			if ue.Ctx != sg.ctx {
				w = 0.7
			} else if u.file.Layout != "" {
				w = layoutTextWeight
			}
			tok := TokResolvedRes
			if sg.nearby {
				tok = sg.direct
			}
			at(u.file, ue, tok, w, &res)
		}
	case kindConst:
		at(p.file, e, pick(sg, TokLiteral), 0.5, nil)
		for _, u := range idx.byKey[refKey{kindRef, e.Key}] {
			ue := u.file.Entries[u.n]
			w := 0.95
			if ue.Ctx != sg.ctx {
				w = 0.5
			}
			at(u.file, ue, sg.token(ue.Ctx), w, nil)
		}
	}
	return hits
}

func pick(sg signal, tok string) string {
	if sg.nearby {
		return sg.direct
	}
	return tok
}

// convention resolves testTag conventions "comp:Name:…" and "screen:Name:…"
// to the definition of composable Name.
func (idx *Index) convention(tag string) []hit {
	kind, rest, ok := strings.Cut(tag, ":")
	if !ok || (kind != "comp" && kind != "screen") {
		return nil
	}
	name, _, _ := strings.Cut(rest, ":")
	var hits []hit
	for _, p := range idx.defs[name] {
		d := p.file.Defs[p.n]
		hits = append(hits, hit{p.file, d.Line, p.n, TokCompTag, 0.9, nil})
	}
	return hits
}

// IsStringsDefinition reports whether a candidate file is a string resource
// file (values*/strings.xml and the like): where words are defined, never the
// screen to edit.
func IsStringsDefinition(file string) bool { return isStringsFile(file) }

// Confident reports whether the best candidate is worth presenting as the
// place to edit: a use (code or layout), graded above low.
func Confident(cands []Candidate) bool {
	return len(cands) > 0 && !isStringsFile(cands[0].File) && cands[0].Confidence != "low"
}

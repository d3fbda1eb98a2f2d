package source

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"fixthis/app/errcode"
	"fixthis/internal/sidekick"
)

// The app's own source index: what the FixThis Gradle plugin (upstream v1.5.0,
// fixthis-gradle-plugin/.../source/SourceIndexAssets.kt:5-64) writes into the debug
// APK as assets/fixthis/fixthis-source-index.json, and the sidekick serves through
// readSourceIndex (BridgeSourceIndexReader.kt, capped at 4 MiB). It says what the
// installed build really contained; the project folder says where those lines are
// now. Index.Match merges the two (see SetAppIndex).

// AppIndexSchema is the only schema this reader takes.
const AppIndexSchema = "1.3"

// AppIndexAsset is where the plugin puts the index inside the APK.
const AppIndexAsset = "assets/fixthis/fixthis-source-index.json"

// SourceIndexFileName is the asset's file name.
const SourceIndexFileName = "fixthis-source-index.json"

// MaxAppIndexBytes bounds the JSON ParseAppIndex reads: a bridge frame. The asset
// itself is capped at sidekick.MaxSourceIndexBytes (4 MiB) by the sidekick and by
// the APK reader, but the sidekick serves it re-encoded, pretty-printed, which can
// double it (BridgeSourceIndexReader.kt:20-24 decodes, BridgeProtocol.kt:16-21
// encodes with prettyPrint).
const MaxAppIndexBytes = sidekick.MaxFrame

// AppIndex is the plugin's SourceIndexAsset.
type AppIndex struct {
	SchemaVersion      string         `json:"schemaVersion"`
	SourceRoot         *AppSourceRoot `json:"sourceRoot,omitempty"`
	TestTagConventions []string       `json:"testTagConventions"`
	Entries            []AppEntry     `json:"entries"`
	conventions        []*regexp.Regexp
}

// AppSourceRoot is the Gradle module the index was built for.
type AppSourceRoot struct {
	Kind       string `json:"kind"`
	GradlePath string `json:"gradlePath,omitempty"`
	ProjectDir string `json:"projectDir,omitempty"`
}

// AppEntry is one indexed source location (SourceIndexEntryAsset). File is relative
// to the module, RepoFile to the repository root.
type AppEntry struct {
	File                string      `json:"file"`
	RepoFile            string      `json:"repoFile,omitempty"`
	Line                int         `json:"line,omitempty"`
	Symbols             []string    `json:"symbols"`
	Text                []string    `json:"text"`
	ContentDescriptions []string    `json:"contentDescriptions"`
	TestTags            []string    `json:"testTags"`
	StringResources     []string    `json:"stringResources"`
	Roles               []string    `json:"roles"`
	ActivityNames       []string    `json:"activityNames"`
	Excerpt             string      `json:"excerpt,omitempty"`
	Signals             []AppSignal `json:"signals"`
	PackageName         string      `json:"packageName,omitempty"`
	ClassName           string      `json:"className,omitempty"`
}

// AppSignal is one piece of evidence of an entry (SourceSignalAsset); Kind is one of
// SourceSignalKindAsset's names (COMPOSABLE_SYMBOL, UI_TEXT, STRING_RESOURCE_RESOLVED…).
type AppSignal struct {
	Kind             string  `json:"kind"`
	Value            string  `json:"value"`
	ConfidenceWeight float64 `json:"confidenceWeight"`
}

// Signal kinds the matcher reads.
const (
	SignalComposable       = "COMPOSABLE_SYMBOL"
	SignalUIText           = "UI_TEXT"
	SignalStringResolved   = "STRING_RESOURCE_RESOLVED"
	SignalTestTag          = "TEST_TAG"
	SignalStrictCompTag    = "STRICT_COMP_TEST_TAG"
	SignalContentDesc      = "CONTENT_DESCRIPTION"
	SignalRole             = "ROLE"
	SignalActivityName     = "ACTIVITY_NAME"
	SignalStringResource   = "STRING_RESOURCE"
	SignalArbitraryLiteral = "ARBITRARY_STRING_LITERAL"
)

// compConvention is the plugin's built-in test-tag convention
// (KotlinSemanticSignalScanner.kt:14-16): comp:<Name>:<id>, screen:<Name>:<id> and
// their dotted forms name the composable that carries the tag.
var compConvention = regexp.MustCompile(`^(?:comp|screen)[:.]([A-Za-z_][A-Za-z0-9_]*)[:.].+`)

// ErrAppIndex wraps every reason an app's index is refused.
var ErrAppIndex = errors.New("app source index unreadable")

// ParseAppIndex reads the plugin's index. It refuses more than MaxAppIndexBytes,
// another schema, and entries without a file; unknown fields are ignored, as the
// sidekick's decoder does.
func ParseAppIndex(data []byte) (*AppIndex, error) {
	if len(data) > MaxAppIndexBytes {
		return nil, fmt.Errorf("%w: %d bytes, more than the %d a bridge frame holds", ErrAppIndex, len(data), MaxAppIndexBytes)
	}
	var ai AppIndex
	if err := json.Unmarshal(data, &ai); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrAppIndex, err)
	}
	if ai.SchemaVersion != AppIndexSchema {
		return nil, fmt.Errorf("%w: schema %s, FixThis reads %s", ErrAppIndex, errcode.Quote(ai.SchemaVersion), AppIndexSchema)
	}
	for i, e := range ai.Entries {
		if strings.TrimSpace(e.File) == "" || strings.ContainsRune(e.File+e.RepoFile, 0) {
			return nil, fmt.Errorf("%w: entry %d has no usable file (%s)", ErrAppIndex, i, errcode.Quote(e.File))
		}
	}
	for _, p := range ai.TestTagConventions {
		re, err := regexp.Compile(p)
		if err != nil {
			continue // the plugin validated it (TestTagConventionPatternValidator.kt); a pattern Go cannot read is skipped
		}
		ai.conventions = append(ai.conventions, re)
	}
	return &ai, nil
}

// path is where the entry's file is relative to the repository.
func (e *AppEntry) path() string {
	if e.RepoFile != "" {
		return e.RepoFile
	}
	return e.File
}

// owner is the composable the entry belongs to, "" when none.
func (e *AppEntry) owner() string {
	for _, s := range e.Signals {
		if s.Kind == SignalComposable {
			return s.Value
		}
	}
	if len(e.Symbols) > 0 {
		return e.Symbols[0]
	}
	return ""
}

// tagOwner is the composable a convention test tag names, "" when it follows none.
func (ai *AppIndex) tagOwner(tag string) string {
	if m := compConvention.FindStringSubmatch(tag); m != nil {
		return m[1]
	}
	for _, re := range ai.conventions {
		if m := re.FindStringSubmatch(tag); len(m) > 1 && m[1] != "" {
			return m[1]
		}
	}
	return ""
}

// appHit is one entry the query matched, with its score and reason tokens.
type appHit struct {
	e      *AppEntry
	score  float64
	tokens []string
	fields map[string]float64 // selected field → weight of its own match here
}

// match scores the app's entries against q with the weights the project index
// uses (match.go), so the two lists rank on one scale.
func (ai *AppIndex) match(q Query) []appHit {
	text, cd, tag := normalize(q.Text), normalize(q.ContentDescription), strings.TrimSpace(q.TestTag)
	compOwner := ""
	if tag != "" {
		compOwner = ai.tagOwner(tag)
	}
	var hits []appHit
	ownerDef := false // the convention's composable already has its definition entry
	for i := range ai.Entries {
		e := &ai.Entries[i]
		h := appHit{e: e, fields: map[string]float64{}}
		add := func(field string, w float64, tok string) {
			if h.score == 0 {
				h.score = w
			} else {
				h.score += corroboration * w
			}
			h.fields[field] = w
			h.tokens = append(h.tokens, tok)
		}
		if tag != "" && contains(e.TestTags, tag, false) {
			add("tag", 1.2, TokTag)
		}
		if text != "" {
			if hasSignal(e, SignalStringResolved, text) {
				add("text", 0.95, TokResolvedRes)
			} else if contains(e.Text, text, true) {
				add("text", 1.0, TokText)
			}
		}
		if cd != "" && contains(e.ContentDescriptions, cd, true) {
			add("cd", 1.0, TokCD)
		}
		if compOwner != "" && h.score == 0 && !ownerDef && hasSignal(e, SignalComposable, "") && e.owner() == compOwner {
			add("tag", 0.9, TokCompTag)
			ownerDef = true
		}
		if h.score == 0 {
			continue
		}
		if q.Role != "" && contains(e.Roles, q.Role, false) {
			h.score += roleBoost
			h.tokens = append(h.tokens, TokRole)
		}
		if q.Activity != "" && activityNamed(e.ActivityNames, q.Activity) {
			h.score += activityBoost
			h.tokens = append(h.tokens, TokActivity)
		}
		hits = append(hits, h)
	}
	corroborate(hits)
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
	if len(hits) > maxCandidates {
		hits = hits[:maxCandidates]
	}
	return hits
}

// corroborate: a selected field matched elsewhere in the same composable supports
// each location of it, as in the project index (match.go, corroboration).
func corroborate(hits []appHit) {
	own := make([]map[string]float64, len(hits)) // the fields each hit matched itself
	for i := range hits {
		own[i] = hits[i].fields
	}
	for i := range hits {
		h := &hits[i]
		owner := h.e.owner()
		if owner == "" {
			continue
		}
		for j := range hits {
			o := &hits[j]
			if i == j || o.e.owner() != owner || o.e.path() != h.e.path() {
				continue
			}
			for f, w := range own[j] {
				if _, ok := h.fields[f]; ok {
					continue
				}
				h.fields[f] = w * corroboration
				h.score += w * corroboration
				h.tokens = append(h.tokens, o.tokens[0])
			}
		}
	}
}

func contains(list []string, v string, fold bool) bool {
	for _, s := range list {
		if (fold && normalize(s) == v) || (!fold && s == v) {
			return true
		}
	}
	return false
}

// hasSignal: the entry has a signal of kind (with that normalised value, when given).
func hasSignal(e *AppEntry, kind, value string) bool {
	for _, s := range e.Signals {
		if s.Kind == kind && (value == "" || normalize(s.Value) == value) {
			return true
		}
	}
	return false
}

// activityNamed: one of names is the query's activity (".MainActivity" or fully
// qualified).
func activityNamed(names []string, activity string) bool {
	short := activity[strings.LastIndexByte(activity, '.')+1:]
	for _, n := range names {
		if n == activity || n == short || strings.HasSuffix(n, "."+short) {
			return true
		}
	}
	return false
}

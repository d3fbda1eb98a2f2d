package source

import (
	"fmt"
	"regexp"
	"strings"
)

// Edit-surface roles of the handoff contract.
const (
	RoleCallSite    = "call-site"
	RoleDefinition  = "component-definition"
	RoleCopy        = "copy-or-data"
	RoleLayoutStyle = "layout-or-style"
	RoleVisualArea  = "visual-area"
	RoleInterop     = "interop-risk"
)

// EditSurface is a hint about where a requested change is likely rendered,
// which may differ from where the matched string lives.
type EditSurface struct {
	// Kind is the kind of change the comment asks for: copy, color,
	// typography, spacing, size, shape, visibility, behavior or general.
	Kind       string   `json:"kind"`
	Role       string   `json:"role"`
	File       string   `json:"file"`
	Line       int      `json:"line,omitempty"`
	Confidence string   `json:"confidence"`
	Why        []string `json:"why"`
	Basis      string   `json:"basis,omitempty"`
	Action     string   `json:"action,omitempty"`
}

// SurfaceTarget is what EditSurfaces needs to know about the selected target.
type SurfaceTarget struct {
	Kind  string // node | area | screen
	Class string // Android class of the selected node
	// Interop is set when the node sits inside an AndroidView/WebView host.
	Interop bool
}

var changeKinds = []struct {
	kind  string
	words *regexp.Regexp
}{
	{"copy", regexp.MustCompile(`(?i)\b(text|copy|label|wording|word|typo|spell\w*|rename|say|says|read|reads|translat\w*|caption|title|string)\b|"[^"]+"`)},
	{"color", regexp.MustCompile(`(?i)\b(colou?rs?|background|tint|contrast|dark|light|red|blue|green|grey|gray|black|white|opacity)\b`)},
	{"typography", regexp.MustCompile(`(?i)\b(font|bold|italic|typography|weight|underline)\b`)},
	{"spacing", regexp.MustCompile(`(?i)\b(padding|margin|spacing|gap|space|align\w*|cent(er|re)d?|indent\w*|overlap\w*)\b`)},
	{"size", regexp.MustCompile(`(?i)\b(bigger|smaller|larger|size|width|height|wider|narrower|taller|shorter|tiny|huge)\b`)},
	{"shape", regexp.MustCompile(`(?i)\b(corners?|rounded|radius|border|shadow|elevation|shape|outline)\b`)},
	{"visibility", regexp.MustCompile(`(?i)\b(hide|hidden|remove|show|visible|invisible|missing|delete)\b`)},
	{"behavior", regexp.MustCompile(`(?i)\b(click|tap|press|crash\w*|navigat\w*|open|broken|disabled|enabled|should go|does ?n.t work)\b`)},
}

var everywhere = regexp.MustCompile(`(?i)\b(all|every|everywhere|consistent\w*|each|across)\b`)

// changeKind classifies a comment by its first matching change kind.
func changeKind(comment string) (string, string) {
	for _, k := range changeKinds {
		if m := k.words.FindString(comment); m != "" {
			return k.kind, m
		}
	}
	return "general", ""
}

var interopClass = regexp.MustCompile(`(?i)webview|androidview|surfaceview|textureview|mapview`)

// EditSurfaces derives up to two edit-surface hints from the user's comment,
// the selected target and its ranked candidates. Hints without a source
// location are not produced: they would point nowhere.
func EditSurfaces(comment string, t SurfaceTarget, cands []Candidate) []EditSurface {
	if len(cands) == 0 {
		return nil
	}
	top := cands[0]
	kind, word := changeKind(comment)
	basis := ""
	if word != "" {
		basis = fmt.Sprintf("comment mentions %q", strings.Trim(word, `"`))
	}
	shared := len(top.CallSites) >= 2
	scopeAll := everywhere.MatchString(comment)
	var out []EditSurface
	addAt := func(role, file string, line int, conf string, why ...string) {
		if file == "" || len(out) >= 2 {
			return
		}
		for _, s := range out {
			if s.Role == role {
				return
			}
		}
		out = append(out, EditSurface{Kind: kind, Role: role, File: file, Line: line, Confidence: conf,
			Why: why, Basis: basis, Action: surfaceAction(role, top.Owner)})
	}
	switch {
	case t.Interop || interopClass.MatchString(t.Class):
		addAt(RoleInterop, top.File, top.Line, "low", "target:interop")
	case t.Kind == "area":
		addAt(RoleVisualArea, top.File, top.Line, "low", "target:area")
	}
	switch kind {
	case "copy":
		if top.ResourceFile != "" {
			addAt(RoleCopy, top.ResourceFile, top.ResourceLine, top.Confidence, "comment:copy", "resolvedStringRes")
		} else {
			addAt(RoleCopy, top.File, top.Line, top.Confidence, "comment:copy")
		}
	case "color", "typography", "spacing", "size", "shape":
		if (scopeAll || shared) && top.OwnerFile != "" {
			why := []string{"comment:" + kind, "owner"}
			if shared {
				why = append(why, "shared-component")
			}
			conf := "medium"
			if !scopeAll {
				conf = "low"
			}
			addAt(RoleDefinition, top.OwnerFile, top.OwnerLine, conf, why...)
			addAt(RoleCallSite, top.File, top.Line, "medium", "comment:"+kind, "call-site")
		} else {
			addAt(RoleLayoutStyle, top.File, top.Line, downgrade(top.Confidence), "comment:"+kind)
		}
	default:
		addAt(RoleCallSite, top.File, top.Line, downgrade(top.Confidence), "comment:"+kind)
	}
	return out
}

func downgrade(conf string) string {
	if conf == "high" {
		return "medium"
	}
	return conf
}

func surfaceAction(role, owner string) string {
	switch role {
	case RoleCallSite:
		return "change the arguments or modifiers at this call site; keep the shared definition as it is"
	case RoleDefinition:
		if owner != "" {
			return fmt.Sprintf("editing %s changes every place that uses it; check its other call sites first", owner)
		}
		return "editing the component definition changes every place that uses it; check its other call sites first"
	case RoleCopy:
		return "edit the string value; keep the resource key and any translations in step"
	case RoleLayoutStyle:
		return "adjust modifiers, padding or style parameters here and compare with the screenshot"
	case RoleVisualArea:
		return "no single node was selected; confirm from the screenshot which composable draws this area before editing"
	case RoleInterop:
		return "the target is inside an AndroidView/WebView; the source may be an XML layout or web content, not Compose"
	}
	return ""
}

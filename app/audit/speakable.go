package audit

import (
	"fmt"
	"strings"
)

// The focus rules below follow ATF's ViewHierarchyElementUtils (shouldFocusView,
// isAccessibilityFocusable, isSpeakingView, getSpeakableTextForElement), which model
// what TalkBack focuses and reads. A dump does not say which nodes are important for
// accessibility, so every dumped node counts as important.

// scrollContainerClasses are the classes TalkBack treats as scrolling containers
// besides any scrollable node (AdapterView, ScrollView, HorizontalScrollView,
// ScrollingView implementations); Spinner is an AdapterView it does not count.
var scrollContainerClasses = []string{
	"android.widget.ListView", "android.widget.GridView", "android.widget.ScrollView",
	"android.widget.HorizontalScrollView", "androidx.core.widget.NestedScrollView",
	"androidx.recyclerview.widget.RecyclerView",
}

// focus holds the per-node answers the speakable checks share, computed bottom-up
// once (children always follow their parent in Nodes).
type focus struct {
	focusable []bool // isAccessibilityFocusable
	speaking  []bool // isSpeakingView
}

func (s *screen) focusInfo() focus {
	f := focus{make([]bool, len(s.nodes)), make([]bool, len(s.nodes))}
	for i := len(s.nodes) - 1; i >= 0; i-- {
		speaking := s.hasText(i) || s.nodes[i].Checkable
		for _, c := range s.children[i] {
			if !speaking && s.visible(c) && !f.focusable[c] && f.speaking[c] {
				speaking = true
			}
		}
		f.speaking[i] = speaking
		f.focusable[i] = s.visible(i) && (s.focusOrClick(i) || (s.inScrollContainer(i) && speaking))
	}
	return f
}

// focusOrClick is isFocusableOrClickableForAccessibility.
func (s *screen) focusOrClick(i int) bool {
	return !s.extras[i].Hidden && (s.nodes[i].Clickable || s.extras[i].Focusable || s.extras[i].LongClickable)
}

func (s *screen) inScrollContainer(i int) bool {
	p := s.parent[i]
	if p < 0 {
		return false
	}
	return s.nodes[p].Scrollable || hasClass(&s.nodes[p], scrollContainerClasses...)
}

func (s *screen) hasText(i int) bool {
	n := &s.nodes[i]
	return n.Text != "" || s.extras[i].HasText || n.ContentDescription != "" || s.extras[i].Hint != ""
}

// shouldFocus is ATF's shouldFocusView.
func (s *screen) shouldFocus(f focus, i int) bool {
	if !s.visible(i) {
		return false
	}
	if f.focusable[i] {
		return len(s.children[i]) == 0 || f.speaking[i]
	}
	if !s.hasText(i) {
		return false
	}
	for p := s.parent[i]; p >= 0; p = s.parent[p] {
		if f.focusable[p] {
			return false
		}
	}
	return true
}

// speakable is what a screen reader says for a node: getSpeakableTextForElement
// in English. Typed text is redacted before it gets here; a field that held some
// speaks as "(typed text)" so it is never empty nor taken for another field's text.
func (s *screen) speakable(i int) string {
	n := &s.nodes[i]
	var parts []string
	if hasClass(n, "android.widget.Switch", "android.widget.ToggleButton",
		"androidx.appcompat.widget.SwitchCompat", "com.google.android.material.switchmaterial.SwitchMaterial") {
		// ruleSwitch: the state (text, else on/off), then the description.
		state := strings.TrimSpace(n.Text)
		if state == "" && n.Checkable {
			state = map[bool]string{true: "on", false: "off"}[n.Checked]
		}
		return joinSpoken(state, n.ContentDescription)
	}
	if n.Checkable {
		parts = append(parts, map[bool]string{true: "checked", false: "not checked"}[n.Checked])
	}
	if n.ContentDescription != "" {
		return joinSpoken(append(parts, n.ContentDescription)...)
	}
	if t := strings.TrimSpace(n.Text); t != "" {
		parts = append(parts, t)
	} else if n.Redacted && s.extras[i].HasText {
		parts = append(parts, "(typed text "+n.UID+")")
	}
	if hasClass(n, listClasses...) && len(s.children[i]) == 0 {
		parts = append(parts, "List showing 0 items.")
	}
	for _, c := range s.children[i] {
		if !s.focusOrClick(c) {
			parts = append(parts, s.speakable(c))
		}
	}
	if h := strings.TrimSpace(s.extras[i].Hint); h != "" {
		parts = append(parts, h)
	}
	return joinSpoken(parts...)
}

func joinSpoken(parts ...string) string {
	var kept []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, ", ")
}

// speakableText follows ATF's SpeakableTextPresentCheck: a node TalkBack would focus
// must have something to say, from itself or from the children it reads along.
// Compose hosts and empty WebViews are left out, as ATF leaves them out, and so is a
// childless node cut by a scrollable edge (below).
func speakableText(s *screen) []Finding {
	f := s.focusInfo()
	var out []Finding
	for i := range s.nodes {
		n := &s.nodes[i]
		if hasClass(n, "androidx.compose.ui.platform.AndroidComposeView") ||
			(hasClass(n, "android.webkit.WebView") && len(s.children[i]) == 0) {
			continue
		}
		if !s.shouldFocus(f, i) || s.speakable(i) != "" {
			continue
		}
		// A childless node at a scrollable edge may be a list item scrolled nearly
		// out: uiautomator leaves out its children that are out of view, so the
		// dump cannot tell an unlabelled control from a cut one.
		if len(s.children[i]) == 0 && s.againstScrollEdge(i, n.Bounds) {
			continue
		}
		out = append(out, s.finding(i, CheckSpeakableText, SeverityError,
			"no text, content description or labelled child", "a spoken label",
			"A screen reader focuses this "+kindOf(n.Class)+" but has nothing to say for it.",
			"Give it a contentDescription (Modifier.semantics { contentDescription = … } in Compose) naming what it does."))
	}
	return out
}

// duplicateSpeakableText follows ATF's DuplicateSpeakableTextCheck: two focusable
// nodes that speak the same text cannot be told apart. WARNING when one of them is
// clickable (reported on the first clickable), INFO otherwise (on the first node).
func duplicateSpeakableText(s *screen) []Finding {
	f := s.focusInfo()
	var out []Finding
	for t, g := range duplicates(s, func(i int) (string, bool) {
		if !s.shouldFocus(f, i) {
			return "", false
		}
		t := s.speakable(i)
		return t, t != ""
	}) {
		first, severity := g[0], SeverityInfo
		for _, i := range g {
			if s.nodes[i].Clickable {
				first, severity = i, SeverityWarning
				break
			}
		}
		out = append(out, s.finding(first, CheckDuplicateSpeakable, severity,
			fmt.Sprintf("%d nodes speak %s", len(g), quoteLabel(t)), "a distinct label per node",
			fmt.Sprintf("%d other node(s) speak the same text %s.", len(g)-1, quoteLabel(t)),
			"Make each label say which item it acts on (\"Delete photo 3\", not \"Delete\")."))
	}
	return out
}

// kindOf names a class for a message: "ImageButton", "View".
func kindOf(class string) string {
	if class == "" {
		return "node"
	}
	return class[strings.LastIndexByte(class, '.')+1:]
}

package audit

import (
	"fmt"
	"regexp"
	"strings"
)

// redundantWords are the English words of ATF's RedundantDescriptionCheck (its
// strings.xml: button_item_type, checkbox_item_type(_separate_words), the four
// states, and the click, swipe and tap actions): a screen reader already speaks a
// node's type, state and the way to act on it.
var redundantWords = []struct{ kind, word string }{
	{"type", "button"}, {"type", "checkbox"}, {"type", "check box"},
	{"state", "checked"}, {"state", "unchecked"}, {"state", "selected"}, {"state", "unselected"},
	{"action", "click"}, {"action", "swipe"}, {"action", "tap"},
}

// redundantPatterns match each word on word boundaries, ignoring case, as ATF's
// containsWordIgnoreCase does.
var redundantPatterns = func() []*regexp.Regexp {
	out := make([]*regexp.Regexp, len(redundantWords))
	for i, w := range redundantWords {
		out[i] = regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(w.word) + `\b`)
	}
	return out
}()

// redundantDescriptions follows ATF's RedundantDescriptionCheck: one WARNING per
// redundant word in a visible node's content description.
func redundantDescriptions(s *screen) []Finding {
	var out []Finding
	for i := range s.nodes {
		desc := s.nodes[i].ContentDescription
		if desc == "" || !s.visible(i) {
			continue
		}
		for k, re := range redundantPatterns {
			if !re.MatchString(desc) {
				continue
			}
			w := redundantWords[k]
			f := s.finding(i, CheckRedundantDescription, SeverityWarning,
				fmt.Sprintf("description %s says %q", quoteLabel(desc), w.word),
				"no "+w.kind+" words in the description",
				fmt.Sprintf("The description repeats the %s (%q) a screen reader already speaks.", w.kind, w.word),
				fmt.Sprintf("Drop %q from the description; say only what the control is or does.", w.word))
			f.Key += "|" + w.word
			out = append(out, f)
		}
	}
	return out
}

// editableContentDescs follows ATF's EditableContentDescCheck: an editable field with
// a content description hides what was typed from the screen reader. ERROR.
func editableContentDescs(s *screen) []Finding {
	var out []Finding
	for i := range s.nodes {
		n := &s.nodes[i]
		if !n.Editable || n.ContentDescription == "" {
			continue
		}
		out = append(out, s.finding(i, CheckEditableContentDesc, SeverityError,
			"content description "+quoteLabel(n.ContentDescription), "no content description on an editable field",
			"This text field has a content description, which a screen reader speaks instead of its text.",
			"Remove the contentDescription; label the field with a hint or a labelFor/TextField label."))
	}
	return out
}

// validClassPrefixes are ATF's ClassNameCheck VALID_UI_PACKAGE_NAME_PREFIXES: the
// packages whose classes TalkBack knows how to describe.
var validClassPrefixes = []string{
	"android.app", "android.appwidget", "android.inputmethodservice", "android.support",
	"android.view", "android.webkit", "android.widget", "androidx",
}

// classNames follows ATF's ClassNameCheck: a visible node whose accessibility class
// (what a dump's class attribute holds) is empty or outside the framework packages
// leaves the screen reader without a type to speak. WARNING.
func classNames(s *screen) []Finding {
	var out []Finding
	for i := range s.nodes {
		if !s.visible(i) {
			continue
		}
		class := s.nodes[i].Class
		known := false
		for _, p := range validClassPrefixes {
			if strings.HasPrefix(class, p) {
				known = true
				break
			}
		}
		if known {
			continue
		}
		measured, msg := "class "+quoteLabel(class), "The accessibility class "+quoteLabel(class)+" is not one a screen reader knows."
		if class == "" {
			measured, msg = "no class", "The node reports no accessibility class."
		}
		out = append(out, s.finding(i, CheckClassName, SeverityWarning, measured,
			"a class from android.widget, android.view or androidx", msg,
			"Override getAccessibilityClassName() to return the closest framework widget (e.g. Button.class.getName())."))
	}
	return out
}

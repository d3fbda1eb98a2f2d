// Package audit finds accessibility and layout flaws on one kept screen: its UI tree,
// optionally its pixels, and the display density. The rules and thresholds follow
// Google's Accessibility Test Framework for Android (ATF) check by check, and the
// layout rules follow Android Studio's visual lint; each file names the ATF class it
// follows. The package does no I/O: callers hand it nodes and pixels and get
// findings back.
package audit

import (
	"errors"
	"fmt"
	"image"
	"sort"

	"fixthis/app/errcode"
	"fixthis/capture"
)

// Check ids: stable names a finding, an item or an agent refers to.
const (
	CheckTouchTarget          = "touch_target"
	CheckSpeakableText        = "speakable_text"
	CheckDuplicateSpeakable   = "duplicate_speakable_text"
	CheckDuplicateClickable   = "duplicate_clickable_bounds"
	CheckRedundantDescription = "redundant_description"
	CheckEditableContentDesc  = "editable_content_desc"
	CheckClassName            = "class_name"
	CheckTextContrast         = "text_contrast"
	CheckImageContrast        = "image_contrast"
	CheckBounds               = "bounds"
	CheckOverlap              = "overlap"
	CheckButtonWidth          = "button_width"
	CheckTextFieldWidth       = "text_field_width"
)

// Severities, as ATF grades its results (ERROR, WARNING, INFO).
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
	SeverityInfo    = "info"
)

// Density limits: Android's buckets run from ldpi (120) to xxxhdpi (640); TVs and
// watches stay inside 100-800. Anything else is a typo or an unread value.
const (
	MinDensityDPI = 100
	MaxDensityDPI = 800
)

// Extra holds what a uiautomator dump says about a node beyond capture.Node: the
// attributes ATF's rules need and the tree the rest of FixThis does not. Typed text
// stays redacted; only whether there was any is kept.
type Extra struct {
	LongClickable bool
	Focusable     bool
	// Hidden is visible-to-user="false" (dumps from uiautomator2 carry it).
	Hidden bool
	// HasText says the node had text before redaction emptied it.
	HasText bool
	// Hint is the hint text uiautomator reports (API 26+), a label, not user input.
	Hint string
}

// Input is one kept screen.
type Input struct {
	Nodes []capture.Node
	// Extras, when set, runs parallel to Nodes (DumpExtras reads them from a dump).
	// Without it, a node is focusable when it is clickable, checkable or editable and
	// never long-clickable.
	Extras []Extra
	// Pixels is the screenshot; without it the contrast checks do not run.
	Pixels image.Image
	// DensityDPI is the display density (wm density), e.g. 420.
	DensityDPI int
	// Width and Height are the screen's size in pixels; zero takes the screenshot's
	// size, else the largest right and bottom edge in the tree.
	Width, Height int
	// Covered are screen areas another window draws over the tree's (a keyboard, the
	// notification shade): the pixels there are not the nodes', so the contrast
	// checks skip nodes that reach into them.
	Covered []capture.Bounds
}

// Finding is one flaw on one node.
type Finding struct {
	Check      string         `json:"check"`
	Severity   string         `json:"severity"`
	Bounds     capture.Bounds `json:"bounds"`
	NodeUID    string         `json:"nodeUid"`
	Measured   string         `json:"measured"`
	Required   string         `json:"required"`
	Message    string         `json:"message"`
	Suggestion string         `json:"suggestion"`
	// Condition names the display setting a dynamic check found the flaw under
	// ("fontScale=2", "night", "rtl"); empty for the static checks.
	Condition string `json:"condition,omitempty"`
	// Key is check + node identity: the same flaw on the same screen has the same key
	// across freezes, so it is one finding.
	Key string `json:"key"`
}

// ErrBadInput is wrapped by every error Run returns.
var ErrBadInput = errors.New("audit input")

func badInput(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrBadInput, fmt.Sprintf(format, args...))
}

// Run audits one screen. Findings come sorted by severity, then top-to-bottom,
// left-to-right, then check id, so the order is stable. Bad input (no nodes, a node
// with negative size or outside the screen, a screenshot that is not the screen's
// size, an unknown density) is an error, never a guessed result.
func Run(in Input) ([]Finding, error) {
	s, err := newScreen(in)
	if err != nil {
		return nil, err
	}
	var out []Finding
	for _, check := range checks {
		out = append(out, check(s)...)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if ra, rb := severityRank[a.Severity], severityRank[b.Severity]; ra != rb {
			return ra < rb
		}
		if a.Bounds.Top != b.Bounds.Top {
			return a.Bounds.Top < b.Bounds.Top
		}
		if a.Bounds.Left != b.Bounds.Left {
			return a.Bounds.Left < b.Bounds.Left
		}
		return a.Check < b.Check
	})
	return out, nil
}

var severityRank = map[string]int{SeverityError: 0, SeverityWarning: 1, SeverityInfo: 2}

// checks runs in this order; each returns its findings for the whole screen.
var checks = []func(*screen) []Finding{
	touchTargets,
	speakableText,
	duplicateSpeakableText,
	duplicateClickableBounds,
	redundantDescriptions,
	editableContentDescs,
	classNames,
	textContrast,
	imageContrast,
	layoutBounds,
	layoutOverlap,
	layoutWidths,
}

// finding fills the fields every check fills the same way.
func (s *screen) finding(i int, check, severity, measured, required, message, suggestion string) Finding {
	n := &s.nodes[i]
	return Finding{
		Check: check, Severity: severity, Bounds: n.Bounds, NodeUID: n.UID,
		Measured: measured, Required: required, Message: message, Suggestion: suggestion,
		Key: check + "|" + nodeIdentity(n),
	}
}

// nodeIdentity names a node the same way across freezes of the same screen: its
// index path (stable for the same structure) plus its id or, without one, its class,
// so a reshuffled screen does not pin an old finding on a new node.
func nodeIdentity(n *capture.Node) string {
	id := n.ResourceID
	if id == "" {
		id = n.Class
	}
	return n.UID + "|" + id
}

// quoteLabel quotes a node's label for a message, short enough to read.
func quoteLabel(s string) string { return errcode.Quote(s) }

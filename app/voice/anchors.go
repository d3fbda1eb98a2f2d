package voice

import (
	"fmt"
	"strings"
	"time"

	"fixthis/capture"
)

// AnchorKind is what the user did to point at something.
type AnchorKind string

// The three kinds of anchors.
const (
	AnchorClick  AnchorKind = "click"  // a node (Annotate) or a tap (Select)
	AnchorArea   AnchorKind = "area"   // a dragged rectangle
	AnchorScreen AnchorKind = "screen" // a note on the whole screen
)

// AnchorKinds lists every kind, for validation and the generated console types.
var AnchorKinds = []AnchorKind{AnchorClick, AnchorArea, AnchorScreen}

// Pointing is one click, drag or screen note as the app resolved it: the node under
// it (when the tree for the screen shown is known), the area, the frame shown at
// that moment and the activity.
type Pointing struct {
	Kind     AnchorKind
	Mode     string // "select" (live) or "annotate" (frozen)
	Serial   string
	X, Y     *int            // a click's point, device pixels
	Node     *capture.Node   // nil: no tree for the screen, or nothing under the point
	Bounds   *capture.Bounds // an area's rectangle; a node's bounds
	Activity string
	Note     string // a screen note's text
	// FrameID names the frame shown (a live preview id or a frozen frame id) and
	// Frame holds its encoded image, kept in memory for the items made from anchors.
	FrameID string
	Frame   []byte
	// Snapshot is the capture the node was resolved on (the freeze, or the tree
	// kept for the live screen): the saved screen of an item made from the
	// anchor. nil when there was no tree for the screen shown.
	Snapshot *capture.Snapshot
}

// Anchor is an announced pointing with its id: what the interviewer's record_unit
// anchors refer to.
type Anchor struct {
	ID   string // anchor_NNNN, counted per connection
	Conn int    // the connection that announced it
	Pointing
	Note string // the [PAGE] note sent for it
	At   time.Time
}

// refreshWindow: the same node again within it refreshes the anchor, no second note.
const refreshWindow = time.Second

// keptAnchors bounds the anchors kept in memory.
const keptAnchors = 200

// anchorBook mints anchor ids for one voice session and keeps its anchors.
type anchorBook struct {
	conn    int
	next    int // last id number minted on conn
	anchors []Anchor
}

// newConnection restarts the numbering: ids count per connection.
func (b *anchorBook) newConnection(conn int) {
	b.conn, b.next = conn, 0
}

// key identifies "the same thing" for the refresh rule.
func (p Pointing) key() string {
	switch {
	case p.Node != nil:
		return string(p.Kind) + ":node:" + p.Node.UID
	case p.Bounds != nil:
		b := p.Bounds
		return fmt.Sprintf("%s:area:%d,%d,%d,%d", p.Kind, b.Left, b.Top, b.Right, b.Bottom)
	case p.X != nil && p.Y != nil:
		return fmt.Sprintf("%s:point:%d,%d", p.Kind, *p.X, *p.Y)
	}
	return string(p.Kind) + ":screen:" + p.Note
}

// add records p. A repeat of the newest anchor within refreshWindow refreshes it and
// returns it with fresh false: nothing is announced.
func (b *anchorBook) add(p Pointing, now time.Time) (a Anchor, announce bool) {
	if n := len(b.anchors); n > 0 {
		last := &b.anchors[n-1]
		if last.Conn == b.conn && last.Pointing.key() == p.key() && now.Sub(last.At) < refreshWindow {
			note := last.Note
			last.Pointing, last.At, last.Note = p, now, note
			return *last, false
		}
	}
	b.next++
	a = Anchor{ID: fmt.Sprintf("anchor_%04d", b.next), Conn: b.conn, Pointing: p, At: now}
	a.Note = PageNote(a)
	b.anchors = append(b.anchors, a)
	if len(b.anchors) > keptAnchors {
		b.anchors = append(b.anchors[:0:0], b.anchors[len(b.anchors)-keptAnchors:]...)
	}
	return a, true
}

// all returns a copy of the kept anchors, oldest first.
func (b *anchorBook) all() []Anchor { return append([]Anchor(nil), b.anchors...) }

// PageNote is the [PAGE] note announcing an anchor to the interviewer.
func PageNote(a Anchor) string {
	p := a.Pointing
	var what string
	switch p.Kind {
	case AnchorArea:
		what = "drew on " + areaDescription(p)
	case AnchorScreen:
		what = "added a screen note"
		if note := clip(oneLine(p.Note), 200); note != "" {
			what += fmt.Sprintf(" %q", note)
		}
		what += " on the whole screen" + activitySuffix(p.Activity)
	default:
		what = "clicked " + clickDescription(p)
	}
	return fmt.Sprintf("[PAGE] The user %s (anchor id: %s).", what, a.ID)
}

func clickDescription(p Pointing) string {
	if p.Node != nil {
		return NodeDescription(*p.Node, p.Activity)
	}
	if p.X != nil && p.Y != nil {
		return fmt.Sprintf("the point (%d, %d) on the screen%s", *p.X, *p.Y, activitySuffix(p.Activity))
	}
	return "the screen" + activitySuffix(p.Activity)
}

func areaDescription(p Pointing) string {
	s := "an area"
	if b := p.Bounds; b != nil {
		s = fmt.Sprintf("an area of %d×%d px at (%d, %d)", b.Width(), b.Height(), b.Left, b.Top)
	}
	if p.Node != nil {
		return s + " over " + NodeDescription(*p.Node, p.Activity)
	}
	return s + activitySuffix(p.Activity)
}

// NodeDescription names a node the way the interviewer is told: role or class,
// visible text (at most 80 characters), resource id or test tag, and the activity.
func NodeDescription(n capture.Node, activity string) string {
	name := n.Role
	if name == "" {
		name = n.Class
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			name = name[i+1:]
		}
	}
	if name == "" {
		name = "element"
	}
	var b strings.Builder
	b.WriteString(name)
	switch {
	case n.Redacted || n.Password:
		b.WriteString(" with hidden text")
	case strings.TrimSpace(n.Text) != "":
		fmt.Fprintf(&b, " with text %q", clip(oneLine(n.Text), 80))
	case strings.TrimSpace(n.ContentDescription) != "":
		fmt.Fprintf(&b, " described as %q", clip(oneLine(n.ContentDescription), 80))
	}
	var ids []string
	switch {
	case n.TestTag != "":
		ids = append(ids, "test tag "+n.TestTag)
	case n.ResourceID != "":
		ids = append(ids, "resource id "+n.ResourceID)
	}
	if activity != "" {
		ids = append(ids, "activity "+activity)
	}
	if len(ids) > 0 {
		b.WriteString(" (" + strings.Join(ids, ", ") + ")")
	}
	return b.String()
}

func activitySuffix(activity string) string {
	if activity == "" {
		return ""
	}
	return " (activity " + activity + ")"
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// clip shortens s to at most n characters, marking a cut with "…".
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

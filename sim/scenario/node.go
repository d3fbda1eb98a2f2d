package scenario

import (
	"encoding/json"
	"fmt"
	"maps"
	"strconv"
	"strings"
)

// Element is one element of a declarative screen layout, as written in scenario
// JSON. Sizes are in dp (text sizes come from the M3 type scale), colours are theme
// names ("primary", "surfaceContainerLow") or "#RRGGBB"/"#AARRGGBB". Strings may
// hold {{var}} placeholders filled from the forEach item or the screen's
// navigation arguments.
type Element struct {
	Type     string     `json:"type"`
	Children []*Element `json:"children,omitempty"`

	// Layout modifiers.
	Width    Dim     `json:"width,omitzero"`
	Height   Dim     `json:"height,omitzero"`
	Weight   float64 `json:"weight,omitempty"`
	Padding  Insets  `json:"padding,omitzero"`
	Gap      float64 `json:"gap,omitempty"`
	Align    string  `json:"align,omitempty"`    // children's cross-axis (box: both) alignment
	Arrange  string  `json:"arrange,omitempty"`  // main axis: start|center|end|spaceBetween
	BoxAlign string  `json:"boxAlign,omitempty"` // this node inside a box: topStart … bottomEnd

	// Drawing modifiers.
	Background string  `json:"bg,omitempty"`
	Radius     float64 `json:"radius,omitempty"`
	Border     string  `json:"border,omitempty"`
	Elevation  float64 `json:"elevation,omitempty"`

	// Content.
	Text      string  `json:"text,omitempty"`
	Style     string  `json:"style,omitempty"` // M3 type scale name
	Color     string  `json:"color,omitempty"`
	MaxLines  int     `json:"maxLines,omitempty"`
	TextAlign string  `json:"textAlign,omitempty"`
	Icon      string  `json:"icon,omitempty"`
	Size      float64 `json:"size,omitempty"`
	Variant   string  `json:"variant,omitempty"`
	Label     string  `json:"label,omitempty"`

	// Semantics.
	TestTag            string `json:"testTag,omitempty"`
	ID                 string `json:"id,omitempty"` // views: resource-id PKG:id/ID
	ContentDescription string `json:"contentDescription,omitempty"`
	Role               string `json:"role,omitempty"`
	Clickable          bool   `json:"clickable,omitempty"`
	Disabled           bool   `json:"disabled,omitempty"`
	Password           bool   `json:"password,omitempty"`
	Selected           bool   `json:"selected,omitempty"`
	Checked            bool   `json:"checked,omitempty"`
	// Semantics forces the node into the UI tree even without text or actions,
	// as a Compose Surface or a View with an id would be.
	Semantics bool `json:"semantics,omitempty"`
	// Class overrides the class name in the UI tree (e.g. a launcher's
	// BubbleTextView); Merge folds the children's text into this node, as a
	// classic View that draws its own label does.
	Class string `json:"class,omitempty"`
	Merge bool   `json:"merge,omitempty"`
	// Field names the session state a textfield, checkbox, switch or list keeps
	// (text, checked, scroll offset); it defaults to the testTag or id.
	Field string `json:"field,omitempty"`
	Value string `json:"value,omitempty"`

	OnTap   *Tap   `json:"onTap,omitempty"`
	ForEach string `json:"forEach,omitempty"`
	// Item binds the node's placeholders to one entry of a data collection,
	// "trails.0", as a detail pane shows the selected entry.
	Item string `json:"item,omitempty"`
	// ItemFrom names the screen field holding the entry's index once one was
	// selected (a tap with "select"); until then Item's index holds.
	ItemFrom string `json:"itemFrom,omitempty"`

	// MinWidthDp and MaxWidthDp keep the node only while the window is at least
	// MinWidthDp and under MaxWidthDp wide, the way an adaptive Compose layout
	// branches on its window size class (compact < 600 dp, medium < 840 dp,
	// expanded beyond).
	MinWidthDp float64 `json:"minWidthDp,omitempty"`
	MaxWidthDp float64 `json:"maxWidthDp,omitempty"`
}

// fitsWidth reports whether n is kept in a window widthDp wide.
func (n *Element) fitsWidth(widthDp float64) bool {
	return widthDp >= n.MinWidthDp && (n.MaxWidthDp == 0 || widthDp < n.MaxWidthDp)
}

// itemRef splits "collection.index" into its parts.
func itemRef(ref string) (string, int, bool) {
	name, idx, ok := strings.Cut(ref, ".")
	i, err := strconv.Atoi(idx)
	return name, i, ok && err == nil && i >= 0
}

// Tap is what tapping a node does.
type Tap struct {
	Navigate string `json:"navigate,omitempty"` // push a screen (with the tapped item as its arguments)
	Replace  bool   `json:"replace,omitempty"`  // navigate without growing the back stack (tabs)
	Back     bool   `json:"back,omitempty"`     // pop the back stack (or close the dialog)
	PopTo    string `json:"popTo,omitempty"`    // close the dialog and pop back to this screen
	Dialog   string `json:"dialog,omitempty"`   // show a dialog screen over this one
	Launch   string `json:"launch,omitempty"`   // launcher: start this package
	Unlock   bool   `json:"unlock,omitempty"`
	Home     bool   `json:"home,omitempty"`
	// Select, on a window at least SelectFromDp wide, sets the screen field it
	// names to the tapped item's index instead of navigating: a list-detail layout
	// selects in its side pane where a compact one opens the detail screen.
	Select       string  `json:"select,omitempty"`
	SelectFromDp float64 `json:"selectFromDp,omitempty"`
}

// Dim is a dp size, "fill" (as much as the parent allows) or "wrap" (content).
type Dim struct {
	Fill bool
	DP   float64
	Set  bool
}

// UnmarshalJSON accepts a number of dp, "fill" or "wrap".
func (d *Dim) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		switch s {
		case "fill":
			*d = Dim{Fill: true, Set: true}
		case "wrap", "":
			*d = Dim{}
		default:
			return fmt.Errorf("size %q: want a number of dp, \"fill\" or \"wrap\"", s)
		}
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("size %s: want a number of dp, \"fill\" or \"wrap\"", b)
	}
	*d = Dim{DP: f, Set: true}
	return nil
}

// MarshalJSON writes the form UnmarshalJSON reads.
func (d Dim) MarshalJSON() ([]byte, error) {
	switch {
	case d.Fill:
		return []byte(`"fill"`), nil
	case d.Set:
		return json.Marshal(d.DP)
	}
	return []byte(`"wrap"`), nil
}

// Insets is padding in dp: left, top, right, bottom.
type Insets struct{ L, T, R, B float64 }

// UnmarshalJSON accepts n (all sides), [vertical, horizontal] or [l, t, r, b].
func (in *Insets) UnmarshalJSON(b []byte) error {
	var f float64
	if err := json.Unmarshal(b, &f); err == nil {
		*in = Insets{f, f, f, f}
		return nil
	}
	var a []float64
	if err := json.Unmarshal(b, &a); err != nil {
		return fmt.Errorf("padding %s: want n, [v,h] or [l,t,r,b]", b)
	}
	switch len(a) {
	case 1:
		*in = Insets{a[0], a[0], a[0], a[0]}
	case 2:
		*in = Insets{a[1], a[0], a[1], a[0]}
	case 4:
		*in = Insets{a[0], a[1], a[2], a[3]}
	default:
		return fmt.Errorf("padding %s: want n, [v,h] or [l,t,r,b]", b)
	}
	return nil
}

// MarshalJSON writes [l, t, r, b].
func (in Insets) MarshalJSON() ([]byte, error) {
	return json.Marshal([]float64{in.L, in.T, in.R, in.B})
}

var nodeTypes = map[string]bool{
	"column": true, "row": true, "box": true, "list": true, "hlist": true, "card": true,
	"text": true, "icon": true, "iconButton": true, "button": true, "fab": true,
	"textfield": true, "checkbox": true, "switch": true, "chip": true, "photo": true,
	"avatar": true, "divider": true, "spacer": true, "navItem": true,
}

func (n *Element) walk(f func(*Element)) {
	if n == nil {
		return
	}
	f(n)
	for _, c := range n.Children {
		c.walk(f)
	}
}

func (n *Element) check() error {
	if !nodeTypes[n.Type] {
		return fmt.Errorf("unknown node type %q", n.Type)
	}
	if n.Type == "icon" || n.Type == "iconButton" {
		if _, ok := icons[n.Icon]; !ok && !strings.Contains(n.Icon, "{{") {
			return fmt.Errorf("%s: unknown icon %q", n.Type, n.Icon)
		}
	}
	if n.Type == "textfield" && n.key() == "" {
		return fmt.Errorf("textfield %q needs a field, testTag or id", n.Label)
	}
	return nil
}

// key names the session state the node keeps.
func (n *Element) key() string {
	switch {
	case n.Field != "":
		return n.Field
	case n.TestTag != "":
		return n.TestTag
	}
	return n.ID
}

// subst fills {{var}} placeholders.
func subst(s string, vars map[string]string) string {
	if !strings.Contains(s, "{{") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		b.WriteString(vars[strings.TrimSpace(s[i+2:i+j])])
		s = s[i+j+2:]
	}
}

// instance returns a copy of n with placeholders filled, children not copied.
func (n *Element) instance(vars map[string]string) *Element {
	c := *n
	c.Children = nil
	for _, p := range []*string{&c.Text, &c.ContentDescription, &c.TestTag, &c.ID, &c.Variant,
		&c.Field, &c.Value, &c.Icon, &c.Label, &c.Background, &c.Color} {
		*p = subst(*p, vars)
	}
	if n.OnTap != nil {
		t := *n.OnTap
		t.Navigate = subst(t.Navigate, vars)
		t.Dialog = subst(t.Dialog, vars)
		t.Launch = subst(t.Launch, vars)
		t.PopTo = subst(t.PopTo, vars)
		c.OnTap = &t
	}
	return &c
}

func mergeVars(a, b map[string]string) map[string]string {
	m := make(map[string]string, len(a)+len(b))
	maps.Copy(m, a)
	maps.Copy(m, b)
	return m
}

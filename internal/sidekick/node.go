package sidekick

// Bounds is a rectangle in device pixels; Right and Bottom are exclusive, as in
// Android's Rect.
type Bounds struct {
	Left   int `json:"left"`
	Top    int `json:"top"`
	Right  int `json:"right"`
	Bottom int `json:"bottom"`
}

// Width of the rectangle, never negative.
func (b Bounds) Width() int { return max(0, b.Right-b.Left) }

// Height of the rectangle, never negative.
func (b Bounds) Height() int { return max(0, b.Bottom-b.Top) }

// Area in square pixels, 0 for an empty rectangle.
func (b Bounds) Area() int64 { return int64(b.Width()) * int64(b.Height()) }

// Empty reports whether the rectangle covers no pixel.
func (b Bounds) Empty() bool { return b.Right <= b.Left || b.Bottom <= b.Top }

// Contains reports whether the pixel (x, y) lies inside the rectangle.
func (b Bounds) Contains(x, y int) bool {
	return x >= b.Left && x < b.Right && y >= b.Top && y < b.Bottom
}

// Intersect returns the overlap of two rectangles (empty when they do not overlap).
func (b Bounds) Intersect(o Bounds) Bounds {
	r := Bounds{max(b.Left, o.Left), max(b.Top, o.Top), min(b.Right, o.Right), min(b.Bottom, o.Bottom)}
	if r.Empty() {
		return Bounds{}
	}
	return r
}

// Node is one element of the UI tree, in the shape of the console API's "Node" and of
// the sidekick's inspectCurrentScreen answer.
// Text of password and editable fields is never kept: Redacted says it was removed.
type Node struct {
	UID                string `json:"uid"`
	ParentUID          string `json:"parentUid"`
	IndexPath          string `json:"indexPath"`
	Class              string `json:"class"`
	Package            string `json:"package,omitempty"`
	Text               string `json:"text"`
	ContentDescription string `json:"contentDescription"`
	ResourceID         string `json:"resourceId"`
	TestTag            string `json:"testTag"`
	Bounds             Bounds `json:"bounds"`
	Clickable          bool   `json:"clickable"`
	Enabled            bool   `json:"enabled"`
	Focused            bool   `json:"focused"`
	Selected           bool   `json:"selected"`
	Checkable          bool   `json:"checkable"`
	Checked            bool   `json:"checked"`
	Password           bool   `json:"password"`
	Scrollable         bool   `json:"scrollable"`
	Editable           bool   `json:"editable"`
	Compose            bool   `json:"compose"`
	Role               string `json:"role"`
	Redacted           bool   `json:"redacted,omitempty"`
}

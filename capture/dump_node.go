package capture

import (
	"strconv"
)

// openNode turns the attributes just read into a Node and, unless the tag closed
// itself, pushes it so its children get their index paths and parent.
func (p *dumpParser) openNode(start int, selfClosing bool) error {
	var parent *frame
	if n := len(p.stack); n > 0 {
		parent = &p.stack[n-1]
	}
	// The index path uses the position among parsed siblings, not the `index`
	// attribute: dumps merged from several windows repeat index="0", and a uid must be
	// unique.
	var ordinal int
	var path, parentUID string
	var inCompose bool
	if parent != nil {
		ordinal = parent.children
		parent.children++
		parentUID = parent.uid
		inCompose = parent.compose
		if parent.isNode {
			path = parent.path + "." + strconv.Itoa(ordinal)
		} else {
			path = strconv.Itoa(ordinal)
		}
	} else {
		ordinal = p.roots
		p.roots++
		path = strconv.Itoa(ordinal)
	}

	n := Node{UID: uidFor(path), ParentUID: parentUID, IndexPath: path, Enabled: true}
	for _, a := range p.attrs {
		var err error
		switch string(a.name) {
		case "text":
			n.Text = string(a.value)
		case "class":
			n.Class = p.intern(a.value)
		case "package":
			n.Package = p.intern(a.value)
		case "content-desc":
			n.ContentDescription = string(a.value)
		case "resource-id":
			n.ResourceID = p.intern(a.value)
		case "bounds":
			n.Bounds, err = parseBounds(a.value)
		case "clickable":
			n.Clickable, err = parseBool(a.value)
		case "enabled":
			n.Enabled, err = parseBool(a.value)
		case "focused":
			n.Focused, err = parseBool(a.value)
		case "selected":
			n.Selected, err = parseBool(a.value)
		case "checkable":
			n.Checkable, err = parseBool(a.value)
		case "checked":
			n.Checked, err = parseBool(a.value)
		case "password":
			n.Password, err = parseBool(a.value)
		case "scrollable":
			n.Scrollable, err = parseBool(a.value)
		}
		if err != nil {
			return p.errAt(start, "node %s attribute %s: %v", n.UID, a.name, err)
		}
	}
	n.TestTag = testTagFrom(n.ResourceID)
	n.Role = roleFor(n.Class)
	n.Editable = isEditableClass(n.Class)
	redact(&n)

	// Compose heuristic (see README): a node is Compose when it sits under a
	// ComposeView/AndroidComposeView host, or carries a test tag (only Compose
	// produces resource-ids without "pkg:id/"). Compose's AndroidView holders
	// (androidx.compose.ui.viewinterop.*) switch their subtree back to Views.
	childCompose := inCompose
	switch {
	case isComposeInterop(n.Class):
		childCompose = false
	case isComposeHost(n.Class):
		childCompose = true
	default:
		n.Compose = inCompose || n.TestTag != ""
	}
	p.nodes = append(p.nodes, n)
	if !selfClosing {
		p.stack = append(p.stack, frame{uid: n.UID, path: path, compose: childCompose, openedAt: start, isNode: true})
	}
	return nil
}

// redact removes what a user typed: password fields and every editable field lose
// their text before anything can store it. Redacted is set on every such node, empty
// or not, so the flag itself leaks nothing about the content.
func redact(n *Node) {
	if n.Password || n.Editable {
		n.Text = ""
		n.Redacted = true
	}
}

// intern shares the few distinct class, package and id strings of a dump; the map
// lookup with string(b) does not allocate.
func (p *dumpParser) intern(b []byte) string {
	if s, ok := p.interned[string(b)]; ok {
		return s
	}
	s := string(b)
	p.interned[s] = s
	return s
}

func parseBool(b []byte) (bool, error) {
	switch string(b) {
	case "true":
		return true, nil
	case "false", "":
		return false, nil
	}
	return false, &valueError{"boolean", b}
}

type valueError struct {
	kind string
	val  []byte
}

func (e *valueError) Error() string {
	return "bad " + e.kind + " " + strconv.Quote(truncate(e.val, 40))
}

// parseBounds reads uiautomator's "[left,top][right,bottom]".
func parseBounds(b []byte) (Bounds, error) {
	var v [4]int
	i := 0
	for k := 0; k < 4; k++ {
		want := byte(',')
		if k%2 == 0 {
			if i >= len(b) || b[i] != '[' {
				return Bounds{}, &valueError{"bounds", b}
			}
			i++
		}
		if k%2 == 1 {
			want = ']'
		}
		neg := false
		if i < len(b) && b[i] == '-' {
			neg = true
			i++
		}
		digits := 0
		x := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			if x > 1<<28 {
				return Bounds{}, &valueError{"bounds", b}
			}
			x = x*10 + int(b[i]-'0')
			i++
			digits++
		}
		if digits == 0 || i >= len(b) || b[i] != want {
			return Bounds{}, &valueError{"bounds", b}
		}
		i++
		if neg {
			x = -x
		}
		v[k] = x
	}
	if i != len(b) {
		return Bounds{}, &valueError{"bounds", b}
	}
	return Bounds{Left: v[0], Top: v[1], Right: v[2], Bottom: v[3]}, nil
}

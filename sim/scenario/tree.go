package scenario

import (
	"bytes"
	"fixthis/internal/sidekick"
	"image"
	"strconv"
	"strings"
)

// Node is a UI node in the sidekick protocol's shape: the demo app's sidekick answers
// with exactly what the host decodes, so the two sides cannot drift apart.
type Node = sidekick.Node

// Bounds are device pixels.
type Bounds = sidekick.Bounds

// uiNode is one node of the UI tree as uiautomator reports it.
type uiNode struct {
	class, text, resID, desc, pkg, testTag, role      string
	checkable, checked, clickable, enabled, focusable bool
	focused, scrollable, longClickable, password      bool
	selected, editable, compose                       bool
	bounds                                            image.Rectangle
	kids                                              []*uiNode
}

// treeBuilder maps a view tree to UI nodes for one screen's style.
type treeBuilder struct {
	pkg      string
	style    string
	idPkg    string
	asTags   bool
	minTouch int // 48 dp in pixels: Material's minimum interactive size
}

func (t *treeBuilder) nodes(v *view) []*uiNode {
	if v.clip.Empty() || v.hide == hideAlways || (v.hide == hideInViews && t.style == "views") {
		return nil
	}
	var kids []*uiNode
	if !v.n.Merge {
		for _, k := range v.kids {
			kids = append(kids, t.nodes(k)...)
		}
	}
	if !t.emits(v) {
		return kids
	}
	u := t.node(v)
	u.kids = kids
	return []*uiNode{u}
}

func (t *treeBuilder) emits(v *view) bool {
	n := v.n
	if n.Class != "" || n.Semantics || n.Clickable || n.OnTap != nil || n.TestTag != "" || n.ContentDescription != "" {
		return true
	}
	if t.style == "views" {
		return v.typ != "spacer"
	}
	switch v.typ {
	case "text":
		return v.text != ""
	case "button", "fab", "iconButton", "textfield", "checkbox", "switch", "chip", "navItem", "card", "list", "hlist":
		return true
	}
	return false
}

var composeClasses = map[string]string{
	"text": "android.widget.TextView", "button": "android.widget.Button", "fab": "android.widget.Button",
	"iconButton": "android.widget.Button", "textfield": "android.widget.EditText", "checkbox": "android.widget.CheckBox",
	"switch": "android.widget.Switch", "photo": "android.widget.ImageView",
}

var viewClasses = map[string]string{
	"column": "android.widget.LinearLayout", "row": "android.widget.LinearLayout", "box": "android.widget.FrameLayout",
	"card": "androidx.cardview.widget.CardView", "list": "androidx.recyclerview.widget.RecyclerView",
	"hlist": "androidx.recyclerview.widget.RecyclerView", "text": "android.widget.TextView", "button": "android.widget.Button",
	"fab": "android.widget.ImageButton", "iconButton": "android.widget.ImageButton", "icon": "android.widget.ImageView",
	"photo": "android.widget.ImageView", "avatar": "android.widget.ImageView", "textfield": "android.widget.EditText",
	"checkbox": "android.widget.CheckBox", "switch": "android.widget.Switch", "chip": "android.widget.Button",
	"divider": "android.view.View", "navItem": "android.widget.FrameLayout",
}

var roles = map[string]string{
	"button": "Button", "fab": "Button", "iconButton": "Button", "textfield": "TextField", "checkbox": "Checkbox",
	"switch": "Switch", "photo": "Image", "chip": "Checkbox", "navItem": "Tab", "text": "Text",
}

func (t *treeBuilder) node(v *view) *uiNode {
	n := v.n
	u := &uiNode{
		pkg: t.pkg, desc: n.ContentDescription, testTag: n.TestTag, role: orStr(n.Role, roles[v.typ]),
		enabled: !n.Disabled, selected: n.Selected, bounds: t.touchBounds(v), compose: t.style == "compose",
		clickable: n.Clickable || n.OnTap != nil,
	}
	u.class = n.Class
	if u.class == "" {
		m, def := composeClasses, "android.view.View"
		if t.style == "views" {
			m = viewClasses
		}
		u.class = orStr(m[v.typ], def)
	}
	switch {
	case t.style == "views" && n.ID != "":
		u.resID = t.idPkg + ":id/" + n.ID
	case t.style == "compose" && t.asTags:
		u.resID = n.TestTag
	}
	switch v.typ {
	case "text":
		u.text = v.text
	case "textfield":
		u.text, u.editable, u.focused, u.longClickable = v.text, true, v.focused, true
		u.password = n.Password
	case "checkbox", "switch":
		u.checkable, u.checked = true, v.checked
	case "iconButton":
		u.checkable, u.checked = n.Field != "", v.checked
		if t.style == "views" && len(v.kids) > 0 {
			u.desc = v.kids[0].n.ContentDescription
		}
	}
	if t.style == "views" && u.text == "" && (n.Merge || v.typ == "button" || v.typ == "chip" || v.typ == "checkbox" || v.typ == "switch" || v.typ == "navItem") {
		u.text = mergedText(v)
	}
	u.focusable = u.clickable || u.editable
	if v.typ == "list" || v.typ == "hlist" {
		span := v.r.Dy()
		if v.typ == "hlist" {
			span = v.r.Dx()
		}
		u.scrollable = v.content > span
	}
	return u
}

func mergedText(v *view) string {
	if v.kind == "text" {
		return v.text
	}
	var parts []string
	for _, k := range v.kids {
		if s := mergedText(k); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, " ")
}

// writeXML writes nodes as `uiautomator dump` does: one line, attributes in
// the device's order, index = position among siblings.
func writeXML(b *bytes.Buffer, nodes []*uiNode, rotation int) {
	b.WriteString(`<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="`)
	b.WriteString(strconv.Itoa(rotation))
	b.WriteString(`">`)
	for i, n := range nodes {
		writeNode(b, n, i)
	}
	b.WriteString(`</hierarchy>`)
}

func writeNode(b *bytes.Buffer, n *uiNode, index int) {
	attr := func(name, val string) {
		b.WriteByte(' ')
		b.WriteString(name)
		b.WriteString(`="`)
		escapeAttr(b, val)
		b.WriteByte('"')
	}
	flag := func(name string, v bool) { attr(name, strconv.FormatBool(v)) }
	b.WriteString(`<node`)
	attr("index", strconv.Itoa(index))
	attr("text", n.text)
	attr("resource-id", n.resID)
	attr("class", n.class)
	attr("package", n.pkg)
	attr("content-desc", n.desc)
	flag("checkable", n.checkable)
	flag("checked", n.checked)
	flag("clickable", n.clickable)
	flag("enabled", n.enabled)
	flag("focusable", n.focusable)
	flag("focused", n.focused)
	flag("scrollable", n.scrollable)
	flag("long-clickable", n.longClickable)
	flag("password", n.password)
	flag("selected", n.selected)
	r := n.bounds
	attr("bounds", "["+strconv.Itoa(r.Min.X)+","+strconv.Itoa(r.Min.Y)+"]["+strconv.Itoa(r.Max.X)+","+strconv.Itoa(r.Max.Y)+"]")
	if len(n.kids) == 0 {
		b.WriteString(` />`)
		return
	}
	b.WriteByte('>')
	for i, k := range n.kids {
		writeNode(b, k, i)
	}
	b.WriteString(`</node>`)
}

// escapeAttr escapes like Android's XmlSerializer: markup characters as
// entities, newlines and other control characters as numeric references.
func escapeAttr(b *bytes.Buffer, s string) {
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		default:
			if r < 0x20 {
				b.WriteString("&#" + strconv.Itoa(int(r)) + ";")
				continue
			}
			b.WriteRune(r)
		}
	}
}

// semNodes flattens a UI tree into console API nodes in document order.
func semNodes(nodes []*uiNode) []Node {
	var out []Node
	var walk func(ns []*uiNode, parent string, path []int)
	walk = func(ns []*uiNode, parent string, path []int) {
		for i, n := range ns {
			p := append(append([]int(nil), path...), i)
			uid := "n" + joinPath(p)
			r := n.bounds
			out = append(out, Node{
				UID: uid, ParentUID: parent, IndexPath: joinPath(p), Class: n.class, Text: n.text,
				ContentDescription: n.desc, ResourceID: n.resID, TestTag: n.testTag,
				Bounds:    Bounds{Left: r.Min.X, Top: r.Min.Y, Right: r.Max.X, Bottom: r.Max.Y},
				Clickable: n.clickable, Enabled: n.enabled, Focused: n.focused, Selected: n.selected,
				Checkable: n.checkable, Checked: n.checked, Password: n.password, Scrollable: n.scrollable,
				Editable: n.editable, Compose: n.compose, Role: n.role,
			})
			walk(n.kids, uid, p)
		}
	}
	walk(nodes, "", nil)
	return out
}

func joinPath(p []int) string {
	var b strings.Builder
	for i, v := range p {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(strconv.Itoa(v))
	}
	return b.String()
}

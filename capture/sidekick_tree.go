package capture

import (
	"errors"
	"fixthis/internal/sidekick"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ErrSidekickTreeUnused wraps why a sidekick that answered was not believed and
// uiautomator was asked instead (the connection itself is fine).
var ErrSidekickTreeUnused = errors.New("sidekick tree not used")

// SidekickNodes turns an inspectCurrentScreen answer into FixThis nodes: the merged
// semantics tree of every Compose root (what a user taps), moved from window to screen
// coordinates by the app window's position in state, with roles, editable and
// password fields, test tags and the tree structure from each node's path. It fails
// (wrapping ErrSidekickTreeUnused) when the answer must not be used: the inspection reported
// errors, found no node, or describes an activity that is not the one in front, or a
// dialog window covers it (the sidekick reads the activity's own window only). A zero
// state (not read) skips the checks that need it.
func SidekickNodes(insp *SidekickInspection, state ScreenState, pkg string) ([]Node, error) {
	if len(insp.Errors) > 0 {
		var codes []string
		for _, e := range insp.Errors {
			codes = append(codes, e.Code+": "+e.Message)
		}
		return nil, fmt.Errorf("%w: inspection errors: %s", ErrSidekickTreeUnused, strings.Join(codes, "; "))
	}
	if insp.MergedNodes() == 0 {
		return nil, fmt.Errorf("%w: no Compose semantics nodes", ErrSidekickTreeUnused)
	}
	var offX, offY int
	if state.Package != "" {
		activity := ""
		if insp.Activity != nil {
			activity = *insp.Activity
		}
		switch {
		case state.Package != pkg || activity != state.Activity:
			return nil, fmt.Errorf("%w: sidekick describes %q, %s/%s is in front", ErrSidekickTreeUnused, activity, state.Package, state.Activity)
		case !state.ScreenOn || state.Keyguard:
			return nil, fmt.Errorf("%w: the screen is off or locked", ErrSidekickTreeUnused)
		case state.Dialog() != nil:
			return nil, fmt.Errorf("%w: a dialog window covers the activity", ErrSidekickTreeUnused)
		}
		if w := appWindow(state, pkg); w != nil {
			offX, offY = w.Bounds.Left, w.Bounds.Top
		}
	}
	var nodes []Node
	var tops []int          // indexes of nodes without a parent
	kids := map[int][]int{} // node index → its children's indexes
	for _, root := range insp.Roots {
		byID := map[string]int{} // "node:<id>" or "root" → index in nodes
		for _, cn := range root.MergedNodes {
			i := len(nodes)
			nodes = append(nodes, sidekickNode(cn, pkg, offX, offY))
			key := "node:" + strconv.Itoa(cn.ComposeNodeID)
			if len(cn.Path) <= 1 {
				key = "root"
			}
			if _, dup := byID[key]; !dup {
				byID[key] = i
			}
			parent := -1
			if len(cn.Path) >= 2 {
				if p, ok := byID[cn.Path[len(cn.Path)-2]]; ok {
					parent = p
				} else if p, ok := byID["root"]; ok {
					parent = p // an ancestor the merged tree leaves out
				}
			}
			if parent < 0 {
				tops = append(tops, i)
			} else {
				kids[parent] = append(kids[parent], i)
			}
		}
	}
	var number func(list []int, prefix, parentUID string)
	number = func(list []int, prefix, parentUID string) {
		for k, i := range list {
			path := strconv.Itoa(k)
			if prefix != "" {
				path = prefix + "." + path
			}
			nodes[i].IndexPath, nodes[i].UID, nodes[i].ParentUID = path, uidFor(path), parentUID
			number(kids[i], path, nodes[i].UID)
		}
	}
	number(tops, "", "")
	// Document order, as uiautomator's nodes come: a parent before its children.
	out := make([]Node, 0, len(nodes))
	var walk func(list []int)
	walk = func(list []int) {
		for _, i := range list {
			out = append(out, nodes[i])
			walk(kids[i])
		}
	}
	walk(tops)
	return out, nil
}

// appWindow is the visible application window of pkg, nil when the list has none.
func appWindow(state ScreenState, pkg string) *Window {
	for i := range state.Windows {
		w := &state.Windows[i]
		if w.Type == WindowApp && w.Visible && w.Package == pkg {
			return w
		}
	}
	return nil
}

// classForRole is the class Compose reports to accessibility (and so to uiautomator)
// for a semantics role, so a node reads the same whichever source gave the tree.
var classForRole = map[string]string{
	"Button":       "android.widget.Button",
	"Checkbox":     "android.widget.CheckBox",
	"Switch":       "android.widget.Switch",
	"RadioButton":  "android.widget.RadioButton",
	"Image":        "android.widget.ImageView",
	"DropdownList": "android.widget.Spinner",
}

func sidekickNode(cn sidekick.ComposeNode, pkg string, offX, offY int) Node {
	b := cn.BoundsInWindow
	n := Node{
		Package:            pkg,
		Text:               strings.Join(cn.Text, " "),
		ContentDescription: strings.Join(cn.ContentDescription, " "),
		Bounds: Bounds{
			Left: offX + int(math.Floor(b.Left)), Top: offY + int(math.Floor(b.Top)),
			Right: offX + int(math.Ceil(b.Right)), Bottom: offY + int(math.Ceil(b.Bottom)),
		},
		Enabled:    cn.Enabled,
		Clickable:  cn.HasAction(sidekick.ActionOnClick) || cn.HasAction(sidekick.ActionOnLongClick),
		Scrollable: cn.HasAction(sidekick.ActionScrollBy),
		Editable:   cn.EditableText != nil || cn.HasAction(sidekick.ActionSetText),
		Password:   cn.IsPassword,
		Compose:    true,
	}
	if cn.TestTag != nil {
		n.TestTag = *cn.TestTag
	}
	if cn.Selected != nil {
		n.Selected = *cn.Selected
	}
	role := ""
	if cn.Role != nil {
		role = *cn.Role
	}
	n.Class = classForRole[role]
	switch {
	case n.Editable:
		n.Class, n.Role = "android.widget.EditText", "TextField"
	case role != "":
		n.Role = role
	case n.Scrollable:
		n.Role = "List"
	case n.Text != "":
		n.Role = "Text"
	}
	if n.Class == "" {
		n.Class = "android.view.View"
		if n.Role == "Text" {
			n.Class = "android.widget.TextView"
		}
	}
	switch role {
	case "Checkbox", "Switch", "RadioButton":
		n.Checkable = true
		if cn.StateDescription != nil {
			n.Checked = isCheckedState(*cn.StateDescription)
		}
	}
	redact(&n)
	return n
}

// isCheckedState reads the state descriptions toggles carry ("Checked", "On",
// "Selected"); anything else (or none) leaves the node unchecked.
func isCheckedState(s string) bool {
	switch strings.ToLower(s) {
	case "checked", "on", "selected":
		return true
	}
	return false
}

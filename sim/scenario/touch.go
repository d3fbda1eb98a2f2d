package scenario

import "image"

// minTouchTypes are the demo's Material components whose Surface applies
// Modifier.minimumInteractiveComponentSize: Button and TextButton, Checkbox, Switch.
// (An iconButton is laid out at 48 dp already, or smaller only where the app sizes
// it down, which the modifier cannot undo; chips turn it off in the demo's source.)
var minTouchTypes = map[string]bool{"button": true, "checkbox": true, "switch": true}

// touchBounds is where a node reports itself. Compose's MinimumInteractiveModifierNode
// (androidx compose/material3/.../material3/InteractiveComponentSize.kt, measure)
// lays a component out at least 48 dp in each dimension and places the drawn part in
// the centre, so uiautomator and the sidekick report the 48 dp area while the pixels
// show the smaller button. The simulation draws the button at its own size and reports
// that area the same way; a node cut by a scrolling ancestor keeps its visible part.
func (t *treeBuilder) touchBounds(v *view) image.Rectangle {
	r := v.clip
	if t.style != "compose" || !minTouchTypes[v.typ] || t.minTouch == 0 || r != v.r {
		return r
	}
	if d := t.minTouch - r.Dx(); d > 0 {
		r.Min.X -= d / 2
		r.Max.X += d - d/2
	}
	if d := t.minTouch - r.Dy(); d > 0 {
		r.Min.Y -= d / 2
		r.Max.Y += d - d/2
	}
	return r
}

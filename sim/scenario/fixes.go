package scenario

import (
	"fmt"
	"strings"
)

// Fixes are the demo app's documented accessibility flaws
// (examples/trailhead/README.md, "Accessibility flaws") as the app draws them once
// rebuilt with the fix, so a check of a fix has an after screen where the flaw is
// gone and one (the unchanged demo) where it is not:
//
//   - search_button: the search IconButton of TrailListScreen.kt (test tag
//     "search_button") sized Modifier.size(48.dp) instead of 36.dp. 48 dp is
//     Material's minimum interactive size (androidx.compose.material3
//     InteractiveComponentSize.kt, minimumInteractiveComponentSize), so the touch
//     target passes. Only the button changes here: in the app the header's text
//     column beside it would narrow by 12 dp, which no check of this fix reads.
var Fixes = []string{"search_button"}

// ApplyFix draws the scenario as the app rebuilt with one of Fixes. Apply it before
// the first session: drawn screens are cached.
func (s *Scenario) ApplyFix(name string) error {
	switch name {
	case "search_button":
		return s.resize("trails", "search_button", 48, 48)
	}
	return fmt.Errorf("unknown fix %q (want one of %s)", name, strings.Join(Fixes, ", "))
}

// resize sets the dp size of the element tagged tag on screen.
func (s *Scenario) resize(screen, tag string, w, h float64) error {
	sc, ok := s.Screens[screen]
	if !ok {
		return fmt.Errorf("scenario %s has no %q screen", s.Name, screen)
	}
	found := false
	sc.Layout.walk(func(e *Element) {
		if e.TestTag == tag {
			e.Width, e.Height, found = Dim{DP: w, Set: true}, Dim{DP: h, Set: true}, true
		}
	})
	if !found {
		return fmt.Errorf("screen %q of scenario %s has no %q", screen, s.Name, tag)
	}
	return nil
}

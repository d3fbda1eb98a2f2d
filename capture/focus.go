package capture

import (
	"regexp"
	"strings"
)

var (
	// "mCurrentFocus=Window{4e8a0b1 u0 com.example.notes/com.example.notes.ui.EditorActivity}"
	currentFocusRE = regexp.MustCompile(`mCurrentFocus=Window\{([0-9a-f]+) (?:u\d+ )?([^}]*)\}`)
	// "mFocusedApp=ActivityRecord{f1e2d3c u0 pkg/.Main t128}" (Android 10+), or the
	// record inside "AppWindowToken{… token=Token{… ActivityRecord{…}}}" (Android 4-9).
	focusedAppRE = regexp.MustCompile(`mFocusedApp=.*?ActivityRecord\{[^ ]+ (?:u\d+ )?([^ /}]+)/`)
)

// focus is which window has input focus and which app's activity is focused.
type focus struct {
	hash, window string // the focused window's hash and title; "" when none
	app          string // the focused activity's package
}

// focusOf reads every focus record of a `dumpsys window` (or of a grep of it). A
// device with more than one display prints one mCurrentFocus and one mFocusedApp per
// display (Samsung's Flip phones list the cover screen's launcher first), and most
// of them say null: the focus is the window that is not null, and the focused app is
// the one that window belongs to, else the first app named.
func focusOf(text string) focus {
	var f focus
	if m := currentFocusRE.FindStringSubmatch(text); m != nil {
		f.hash, f.window = m[1], strings.TrimSpace(m[2])
	}
	winPkg, _, _ := strings.Cut(f.window, "/")
	for i, m := range focusedAppRE.FindAllStringSubmatch(text, -1) {
		if i == 0 || m[1] == winPkg {
			f.app = m[1]
		}
		if m[1] == winPkg {
			break
		}
	}
	return f
}

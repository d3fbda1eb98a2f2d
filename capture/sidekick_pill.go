package capture

import (
	"strconv"
	"strings"
)

// FLAG_NOT_FOCUSABLE and FLAG_NOT_TOUCHABLE, for dumps that print the flags as hex
// (Android 4-9: "fl=#1000118").
const (
	flagNotFocusable = 0x8
	flagNotTouchable = 0x10
)

// sidekickStatusTitle is the title the FixThis sidekick gives its status window.
const sidekickStatusTitle = "FixThis MCP status"

// isSidekickStatus recognises the connection pill the FixThis sidekick adds over
// every resumed activity (FixThisConnectionStatusHostLayout.kt:149-165 at upstream
// v1.5.0, attached from FixThisActivityLifecycleCallbacks.kt:27): a
// TYPE_APPLICATION_PANEL titled "FixThis MCP status" with FLAG_NOT_FOCUSABLE and
// FLAG_NOT_TOUCHABLE. It is an instrument of the bridge, not the app's UI: it is
// never a dialog, a target or part of a prompt. A panel with another title, or one
// that takes focus or touches (a popup, a menu), stays what its type says.
func isSidekickStatus(ty, title string, flags []string) bool {
	if title != sidekickStatusTitle || (ty != "APPLICATION_PANEL" && ty != "1000") {
		return false
	}
	var notFocusable, notTouchable bool
	for _, f := range flags {
		if hex, ok := strings.CutPrefix(f, "#"); ok { // Android 4-9
			if v, err := strconv.ParseUint(hex, 16, 64); err == nil {
				notFocusable = notFocusable || v&flagNotFocusable != 0
				notTouchable = notTouchable || v&flagNotTouchable != 0
			}
			continue
		}
		notFocusable = notFocusable || f == "NOT_FOCUSABLE"
		notTouchable = notTouchable || f == "NOT_TOUCHABLE"
	}
	return notFocusable && notTouchable
}

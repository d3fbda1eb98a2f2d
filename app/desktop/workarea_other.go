//go:build desktop && !linux

package desktop

import "fixthis/app/windowplace"

// workArea is not asked of Windows and macOS yet: the window opens at its preferred
// size there, as before.
func workArea() (windowplace.Rect, error) { return windowplace.Rect{}, windowplace.ErrNoWorkArea }

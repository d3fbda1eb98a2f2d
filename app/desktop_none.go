//go:build !desktop

package app

import (
	"context"
	"errors"
)

// DesktopAvailable reports whether this binary was built with the Wails window.
const DesktopAvailable = false

// ErrNoDesktop means the binary was built without the `desktop` tag (tests, headless
// builds); callers fall back to serve mode.
var ErrNoDesktop = errors.New("this fixthis binary was built without the desktop window (build tag `desktop`); use `make build`")

// RunDesktop is unavailable without the desktop build tag.
func (a *App) RunDesktop(ctx context.Context) error { return ErrNoDesktop }

//go:build !desktop

package desktop

import (
	"context"
	"errors"
)

// Available reports whether this binary was built with the Wails window.
const Available = false

// ErrNoDesktop means the binary was built without the `desktop` tag (tests, headless
// builds, the macOS download); callers fall back to serve mode.
var ErrNoDesktop = errors.New("this fixthis binary was built without the desktop window (build tag `desktop`); use `make build`")

// Run is unavailable without the desktop build tag.
func Run(context.Context, App) error { return ErrNoDesktop }

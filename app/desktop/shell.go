// Package desktop is the native window around the console: Wails' window, where it is
// placed (the monitor's work area, the place the user last left it), and the
// microphone policy of the Linux webview (a little cgo against WebKitGTK). It is
// compiled in with the `desktop` build tag; without it Run reports ErrNoDesktop and
// the command serves the console in a browser instead.
//
// The window knows the app only through App, so the root package keeps the wiring
// and nothing here reaches into the feedback core.
package desktop

import (
	"context"
	"io/fs"
	"log/slog"
	"net/http"
)

// App is what the window shows and drives.
type App interface {
	// Console is the built console the window loads.
	Console() fs.FS
	// Icon is the window and taskbar icon (PNG).
	Icon() []byte
	// APIHandler answers the console's /api requests inside the window.
	APIHandler() http.Handler
	// ServeMCP runs the loopback MCP endpoint until ctx ends.
	ServeMCP(ctx context.Context) error
	// Shutdown stops the app's work once the window closes; it may run twice.
	Shutdown()
	// Logger receives the window's decisions (placement, permission requests).
	Logger() *slog.Logger
}

package desktop

import (
	"net/url"
	"strings"
)

// consoleOrigins are the origins the desktop window loads the console from: Wails v2
// serves it as wails://wails on Linux and macOS and http://wails.localhost on Windows.
var consoleOrigins = []string{"wails://wails", "http://wails.localhost", "https://wails.localhost"}

// MediaRequest is one page's ask for capture devices, as the webview reports it.
type MediaRequest struct {
	PageURI string
	Audio   bool
	Video   bool
	Display bool
}

// AllowUserMedia is the window's microphone policy: audio capture only, and only for
// the console's own origin. Camera, screen or window capture, a request that mixes
// them with audio, and any other origin (a link the user followed inside the window)
// are refused. The Linux window applies it to WebKitGTK's permission requests
// (mediaperm_linux.go); every other permission type is refused there before it gets
// here.
func AllowUserMedia(r MediaRequest) bool {
	if !r.Audio || r.Video || r.Display {
		return false
	}
	return IsConsoleOrigin(r.PageURI)
}

// IsConsoleOrigin reports whether uri belongs to the console the window serves.
func IsConsoleOrigin(uri string) bool {
	u, err := url.Parse(uri)
	if err != nil || u.User != nil {
		return false
	}
	origin := strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host)
	for _, o := range consoleOrigins {
		if origin == o {
			return true
		}
	}
	return false
}

// originOf is uri's scheme and host, for logs (never the path or query).
func originOf(uri string) string {
	u, err := url.Parse(uri)
	if err != nil {
		return "?"
	}
	return u.Scheme + "://" + u.Host
}

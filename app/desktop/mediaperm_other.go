//go:build desktop && !linux

package desktop

import "log/slog"

// installMediaPolicy has nothing to install outside Linux: WebView2 (Windows) asks the
// user itself, and WKWebView (macOS) asks once the app declares
// NSMicrophoneUsageDescription (README, "Talk while you point"). Neither is tried yet.
func installMediaPolicy(*slog.Logger) {}

package cli

// hasDisplay is always true on macOS: a process runs inside a desktop session, and
// there is no environment variable that says otherwise.
func hasDisplay(func(string) string) bool { return true }

const noDisplayReason = "no desktop session"

// adbInstallFix points at Homebrew's cask or Google's platform-tools.
const adbInstallFix = "brew install --cask android-platform-tools, or download Google's SDK Platform-Tools for macOS (https://developer.android.com/tools/releases/platform-tools) and add the platform-tools folder to PATH"

// launchDir is the project directory when no --project-dir is given: the working
// directory (FixThis is started from a terminal or by an agent).
func launchDir(wd string) string { return wd }

// noWindowReason completes "this build has no desktop window (…)": the macOS download
// is built without cgo, and the window needs Cocoa through cgo.
const noWindowReason = "the macOS download is built without cgo; the native window comes as FixThis.app from a release"

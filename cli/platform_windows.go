package cli

import (
	"os"
	"path/filepath"
	"strings"
)

// hasDisplay is always true on Windows: a process runs inside a desktop session, and
// there is no environment variable that says otherwise.
func hasDisplay(func(string) string) bool { return true }

const noDisplayReason = "no desktop session"

// adbInstallFix points at Google's platform-tools: Windows has no package that ships
// adb.exe with its USB drivers, and FixThis only needs adb.exe on PATH.
const adbInstallFix = "download Google's SDK Platform-Tools for Windows (https://developer.android.com/tools/releases/platform-tools), unzip it and add the platform-tools folder (it holds adb.exe) to PATH"

// launchDir is the project directory when no --project-dir is given and the process
// runs in wd. Start-menu and desktop shortcuts, and a double-click in Explorer, start
// fixthis.exe in its own folder (under Program Files once installed, which users
// cannot write), so that case gets the home folder, as a Linux launcher gives.
func launchDir(wd string) string {
	exe, err := os.Executable()
	if err != nil || !strings.EqualFold(filepath.Clean(filepath.Dir(exe)), filepath.Clean(wd)) {
		return wd
	}
	if home, err := os.UserHomeDir(); err == nil {
		return home
	}
	return wd
}

// noWindowReason completes "this build has no desktop window (…)".
const noWindowReason = "built without the `desktop` tag; the release's fixthis.exe has the window"

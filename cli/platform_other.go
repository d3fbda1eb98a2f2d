//go:build !windows && !darwin

package cli

// hasDisplay reports whether a window can open: on X11 and Wayland desktops the session
// exports DISPLAY or WAYLAND_DISPLAY; over SSH neither is set.
func hasDisplay(getenv func(string) string) bool {
	return getenv("DISPLAY") != "" || getenv("WAYLAND_DISPLAY") != ""
}

// noDisplayReason completes "no display (…)" when hasDisplay is false.
const noDisplayReason = "DISPLAY and WAYLAND_DISPLAY are unset"

// adbInstallFix says how to get adb on this system.
const adbInstallFix = "sudo apt-get install adb (or your distribution's android-tools package)"

// launchDir is the project directory when no --project-dir is given: the working
// directory (launchers start in the home folder).
func launchDir(wd string) string { return wd }

// noWindowReason completes "this build has no desktop window (…)".
const noWindowReason = "built without the `desktop` tag; `make build` builds the window"

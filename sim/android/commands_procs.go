// Programs that start or stop processes beside the app: pkill and appops (which
// mobilecli runs before it starts its agent), and the Android runtime's start
// lines that every app_process program (uiautomator among them) leaves in logcat.
package android

import (
	"regexp"
	"sync/atomic"

	"fixthis/sim/shell"
)

// runtimePids numbers the runtimes started from the shell, above the app's pids.
var runtimePids atomic.Int64

func init() { runtimePids.Store(21400) }

// logRuntimeStart writes the two lines a fresh Android runtime logs before it runs
// main:
//
//	D AndroidRuntime: >>>>>> START com.android.internal.os.RuntimeInit uid 2000 <<<<<<
//	D AndroidRuntime: Calling main entry com.android.commands.uiautomator.Launcher
//
// so `adb logcat -d -s AndroidRuntime` counts the dumps a phone made, whoever asked
// for them, as on a real phone (`make bench` counts them that way).
func (d *Device) logRuntimeStart(main string) {
	pid := int(runtimePids.Add(5))
	d.log("D", "AndroidRuntime", pid, ">>>>>> START com.android.internal.os.RuntimeInit uid 2000 <<<<<<")
	d.log("D", "AndroidRuntime", pid, "Calling main entry "+main)
}

// cmdPkill matches -f patterns against the command lines the phone runs; the shell
// user may stop only the app under test. Nothing matched: exit 1, silently.
func cmdPkill(e *cmdEnv) int {
	_, args := shell.Flags(e.Args[1:])
	if len(args) != 1 {
		return e.Errorf(1, "pkill: needs 1 argument\n")
	}
	re, err := regexp.Compile(args[0])
	if err != nil {
		return e.Errorf(1, "pkill: bad regex '%s'\n", args[0])
	}
	pkg := e.dev.profile.App.Package
	if e.dev.appPid() == 0 || !re.MatchString(pkg) {
		return 1
	}
	e.dev.phone.ForceStop(pkg)
	e.dev.appPid() // logs the death
	return 0
}

// cmdAppops: `appops set PKG OP MODE` succeeds without output; the phone keeps no ops.
func cmdAppops(e *cmdEnv) int {
	if len(e.Args) >= 5 && e.Args[1] == "set" {
		return 0
	}
	if len(e.Args) >= 3 && e.Args[1] == "get" {
		e.Printf("No operations.\n")
		return 0
	}
	return e.Errorf(255, "AppOps service (appops) commands:\n  set [--user <USER_ID>] <PACKAGE | UID> <OP> <MODE>\n  get [--user <USER_ID>] <PACKAGE | UID> [<OP>]\n")
}

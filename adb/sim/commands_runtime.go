package sim

import "sync/atomic"

// A phone starts `uiautomator` (a shell script around app_process) as a fresh Android
// runtime, and that runtime writes two AndroidRuntime lines to logcat before the dump:
//
//	D AndroidRuntime: >>>>>> START com.android.internal.os.RuntimeInit uid 2000 <<<<<<
//	D AndroidRuntime: Calling main entry com.android.commands.uiautomator.Launcher
//
// So `adb logcat -d -s AndroidRuntime` counts the dumps a phone made, whoever asked
// for them; `make bench` counts them that way, as it would on a real phone.

// runtimePids numbers the runtimes started from the shell, above the app's pids.
var runtimePids atomic.Int64

func init() {
	runtimePids.Store(21400)
	dump := commands["uiautomator"]
	if dump == nil {
		panic("sim: commands_runtime.go wraps uiautomator, which is not defined")
	}
	commands["uiautomator"] = func(e *cmdEnv) int {
		pid := int(runtimePids.Add(5))
		e.dev.log("D", "AndroidRuntime", pid, ">>>>>> START com.android.internal.os.RuntimeInit uid 2000 <<<<<<")
		e.dev.log("D", "AndroidRuntime", pid, "Calling main entry com.android.commands.uiautomator.Launcher")
		return dump(e)
	}
}

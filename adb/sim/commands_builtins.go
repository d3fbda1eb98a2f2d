package sim

// Shell builtins the adb client itself sends: `adb logcat ARGS` runs
// `export ANDROID_LOG_TAGS="''"; exec logcat ARGS` on the phone. The simulated shell
// keeps no environment, so export only checks its operands; exec runs the command in
// place, as sh would.

func init() {
	commands["export"] = func(e *cmdEnv) int { return 0 }
	commands["exec"] = cmdExec
}

func cmdExec(e *cmdEnv) int {
	if len(e.args) < 2 {
		return 0
	}
	fn, ok := commands[e.args[1]]
	if !ok {
		return e.errorf(127, "/system/bin/sh: exec: %s: inaccessible or not found\n", e.args[1])
	}
	sub := *e
	sub.args = e.args[1:]
	return fn(&sub)
}

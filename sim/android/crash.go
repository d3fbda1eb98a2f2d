// An app crash as Android reports it: `am crash` and Device.CrashApp.
package android

import (
	"errors"
	"fmt"
	"strconv"
)

// shellInducedCrash is what `am crash` makes an app throw on Android 12 and
// later, with the main thread's stack as the platform prints it.
var shellInducedCrash = Crash{
	Exception: "android.app.RemoteServiceException$CrashedByAdbException: shell-induced crash",
	Frames: []string{
		"android.app.ActivityThread.throwRemoteServiceException(ActivityThread.java:2153)",
		"android.app.ActivityThread.-$$Nest$mthrowRemoteServiceException(Unknown Source:0)",
		"android.app.ActivityThread$H.handleMessage(ActivityThread.java:2404)",
		"android.os.Handler.dispatchMessage(Handler.java:106)",
		"android.os.Looper.loopOnce(Looper.java:205)",
		"android.os.Looper.loop(Looper.java:294)",
		"android.app.ActivityThread.main(ActivityThread.java:8177)",
		"java.lang.reflect.Method.invoke(Native Method)",
		"com.android.internal.os.RuntimeInit$MethodAndArgsCaller.run(RuntimeInit.java:552)",
		"com.android.internal.os.ZygoteInit.main(ZygoteInit.java:971)",
	},
}

// Crash is an uncaught exception on the app's main thread.
type Crash struct {
	// Exception is the first line of the trace: `type: message`.
	Exception string
	// Frames are the stack's frames, innermost first, without "at ".
	Frames []string
	// CausedBy, when set, is logged as a "Caused by:" line after the frames.
	CausedBy string
}

// ErrAppNotRunning means there is no app process to crash.
var ErrAppNotRunning = errors.New("the app is not running")

// CrashApp makes the running app die of c the way Android reports it: the
// FATAL EXCEPTION record in the crash buffer, the activity force-finished, the
// process killed. Afterwards the app has no process, so dumpsys finds none.
func (d *Device) CrashApp(c Crash) error {
	pid := d.appPid()
	if pid == 0 {
		return ErrAppNotRunning
	}
	app := d.profile.App
	d.logTo("main", "D", "AndroidRuntime", pid, pid, "Shutting down VM")
	trace := "FATAL EXCEPTION: main\nProcess: " + app.Package + ", PID: " + strconv.Itoa(pid) + "\n" + c.Exception
	for _, f := range c.Frames {
		trace += "\n\tat " + f
	}
	if c.CausedBy != "" {
		trace += "\nCaused by: " + c.CausedBy
	}
	d.logTo("crash", "E", "AndroidRuntime", pid, pid, trace)
	d.log("W", "ActivityTaskManager", systemPid, "  Force finishing activity "+shortComponent(app.Package, d.phone.State().Activity))
	d.logTo("main", "I", "Process", pid, pid, fmt.Sprintf("Sending signal. PID: %d SIG: 9", pid))
	d.phone.ForceStop(app.Package)
	d.appPid() // logs the death
	d.logTo("main", "I", "Zygote", 921, 921, fmt.Sprintf("Process %d exited due to signal 9 (Killed)", pid))
	return nil
}

// amCrash is `am crash [--user N] <PACKAGE|PID>` (Android 11+): it crashes the
// app, or prints nothing when no such process runs.
func amCrash(e *cmdEnv) int {
	args := e.Args[2:]
	if len(args) >= 2 && args[0] == "--user" {
		args = args[2:]
	}
	if len(args) < 1 {
		return e.Errorf(255, "Error: no package or pid specified\n")
	}
	d := e.dev
	target := args[0]
	if target != d.profile.App.Package && target != strconv.Itoa(d.appPid()) {
		return 0
	}
	if err := d.CrashApp(shellInducedCrash); err != nil && !errors.Is(err, ErrAppNotRunning) {
		return e.Errorf(255, "Error: %v\n", err)
	}
	return 0
}

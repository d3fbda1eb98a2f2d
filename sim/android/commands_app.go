// The app's process (its pid while it runs) and the programs that start, stop and
// find it: am, monkey, pidof, run-as.
package android

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// appProcess gives the app's process a pid while the phone reports it running; a
// restarted app gets a new pid, as on a phone.
type appProcess struct {
	mu      sync.Mutex
	pid     int
	nextPid int
}

// appPid returns the running app's pid, or 0.
func (d *Device) appPid() int {
	st := d.phone.State()
	d.proc.mu.Lock()
	defer d.proc.mu.Unlock()
	if !st.AppRunning {
		if d.proc.pid != 0 {
			d.log("I", "ActivityManager", 1423, fmt.Sprintf("Process %s (pid %d) has died", d.profile.App.Package, d.proc.pid))
		}
		d.proc.pid = 0
		return 0
	}
	if d.proc.pid == 0 {
		if d.proc.nextPid == 0 {
			d.proc.nextPid = 12010 // app pids on a phone that booted a while ago
		}
		restarted := d.proc.nextPid != 12010
		d.proc.nextPid += 7
		d.proc.pid = d.proc.nextPid
		if restarted && d.profile.App.Sidekick {
			d.sidekickRestarted()
		}
		d.log("I", "ActivityManager", 1423, fmt.Sprintf("Start proc %d:%s/u0a187 for top-activity {%s}", d.proc.pid, d.profile.App.Package, shortComponent(d.profile.App.Package, st.Activity)))
		d.startAppHTTP(d.proc.pid)
	}
	return d.proc.pid
}

func cmdAm(e *cmdEnv) int {
	if len(e.Args) < 2 {
		return e.Errorf(255, "Activity manager (activity) commands:\n  start [-W] -n COMPONENT\n  force-stop PACKAGE\n")
	}
	d := e.dev
	switch e.Args[1] {
	case "start", "start-activity":
		var component string
		wait := false
		args := e.Args[2:]
		for i := 0; i < len(args); i++ {
			switch args[i] {
			case "-n":
				if i+1 < len(args) {
					component = args[i+1]
					i++
				}
			case "-W":
				wait = true
			default:
				// Intent flags the sim does not act on still consume their values.
				i += intentFlagValues[args[i]]
			}
		}
		if component == "" {
			return e.Errorf(1, "Error: Activity not started, unable to resolve Intent { flg=0x10000000 }\n")
		}
		e.Printf("Starting: Intent { cmp=%s }\n", component)
		start := time.Now()
		state := launchState(d, component)
		if err := d.phone.StartActivity(component); err != nil {
			e.Printf("Error type 3\n")
			return e.Errorf(1, "Error: Activity class {%s} does not exist.\n", component)
		}
		d.appPid()
		d.log("I", "ActivityTaskManager", 1423, fmt.Sprintf("START u0 {flg=0x10000000 cmp=%s} from uid 2000", component))
		if wait {
			d.delay(e.Ctx, launchCost[state])
			ms := max(1, time.Since(start).Milliseconds())
			e.Printf("Status: ok\nLaunchState: %s\nActivity: %s\nTotalTime: %d\nWaitTime: %d\nComplete\n", state, component, ms, ms+3)
		}
		return 0
	case "force-stop":
		if len(e.Args) < 3 {
			return e.Errorf(255, "Error: no package specified\n")
		}
		d.phone.ForceStop(e.Args[2])
		d.appPid() // logs the death
		return 0
	case "kill":
		return 0
	case "broadcast":
		return cmdBroadcast(e)
	case "crash":
		return amCrash(e)
	}
	return e.Errorf(255, "Error: Unknown command: %s\n", e.Args[1])
}

// intentFlagValues is how many values each ignored `am start` flag takes.
var intentFlagValues = map[string]int{
	"-a": 1, "-c": 1, "-d": 1, "-t": 1, "-f": 1, "--user": 1,
	"-e": 2, "--es": 2, "--ei": 2, "--ez": 2, "--el": 2, "--ef": 2,
}

func cmdMonkey(e *cmdEnv) int {
	var pkg string
	for i, a := range e.Args {
		if a == "-p" && i+1 < len(e.Args) {
			pkg = e.Args[i+1]
		}
	}
	app := e.dev.profile.App
	for _, a := range e.Args[1:] {
		fmt.Fprintf(e.Stderr, "  bash arg: %s\n", a)
	}
	if pkg != app.Package {
		e.Printf("** No activities found to run, monkey aborted.\n")
		return 251
	}
	comp := shortComponent(app.Package, app.LauncherActivity)
	if err := e.dev.phone.StartActivity(comp); err != nil {
		return e.Errorf(251, "** monkey aborted: %v\n", err)
	}
	e.dev.appPid()
	e.Printf("Events injected: 1\n## Network stats: elapsed time=12ms (0ms mobile, 0ms wifi, 12ms not connected)\n")
	return 0
}

func cmdPidof(e *cmdEnv) int {
	status := 1
	var pids []string
	for _, name := range e.Args[1:] {
		switch name {
		case e.dev.profile.App.Package:
			if pid := e.dev.appPid(); pid != 0 {
				pids = append(pids, strconv.Itoa(pid))
				status = 0
			}
		case "system_server":
			pids, status = append(pids, "1423"), 0
		case "com.android.systemui":
			pids, status = append(pids, "1876"), 0
		}
	}
	if len(pids) > 0 {
		e.Printf("%s\n", strings.Join(pids, " "))
	}
	return status
}

// cmdRunAs runs a command as the app: inside its data directory, with its private
// files readable. Only a debuggable app qualifies, which the scenario's app is.
func cmdRunAs(e *cmdEnv) int {
	if len(e.Args) < 3 {
		return e.Errorf(1, "usage: run-as <package-name> [--user <uid>] <command> [<args>]\n")
	}
	pkg := e.Args[1]
	if pkg != e.dev.profile.App.Package {
		return e.Errorf(1, "run-as: unknown package: %s\n", pkg)
	}
	args := e.Args[2:]
	if len(args) >= 2 && args[0] == "--user" {
		args = args[2:]
	}
	if len(args) == 0 {
		return e.Errorf(1, "run-as: no command given\n")
	}
	fn, ok := e.Shell.Lookup(args[0])
	if !ok {
		return e.Errorf(1, "run-as: exec failed for %s: No such file or directory\n", args[0])
	}
	sub := *e.Env
	sub.Args = args
	sub.Cwd = "/data/user/0/" + pkg
	sub.RunAs = true
	return fn(&sub)
}

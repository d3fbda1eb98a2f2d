package sim

import (
	"fixthis/internal/sidekick"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// logBuffer is the device's main log: a ring of threadtime-formatted lines, seeded
// with a boot and an app start and fed by what happens on the device.
type logBuffer struct {
	mu    sync.Mutex
	lines []string
}

const logBufferMax = 5000

func (d *Device) log(level, tag string, pid int, msg string) {
	line := fmt.Sprintf("%s %5d %5d %s %-8s: %s", time.Now().Format("01-02 15:04:05.000"), pid, pid, level, tag, msg)
	d.logs.mu.Lock()
	defer d.logs.mu.Unlock()
	d.logs.lines = append(d.logs.lines, line)
	if len(d.logs.lines) > logBufferMax {
		d.logs.lines = d.logs.lines[len(d.logs.lines)-logBufferMax:]
	}
}

func (d *Device) logInput(kind string, v ...int) {
	d.log("D", "InputDispatcher", 1423, fmt.Sprintf("Injected %s %v", kind, v))
	if pid := d.appPid(); pid != 0 {
		d.log("D", "ViewRootImpl", pid, fmt.Sprintf("[%s] %s handled by Compose", d.profile.App.Label, kind))
	}
}

// seedLog writes what a freshly booted phone with the app open would have logged.
func (d *Device) seedLog() {
	app := d.profile.App
	d.log("I", "init", 1, "Service 'adbd' (pid 612) started")
	d.log("I", "ActivityManager", 1423, "System now ready")
	d.log("I", "ActivityTaskManager", 1423, fmt.Sprintf("START u0 {act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] flg=0x10200000 cmp=%s} from uid 10071", shortComponent(app.Package, app.LauncherActivity)))
	if pid := d.appPid(); pid != 0 {
		d.log("I", "Choreographer", pid, "Skipped 31 frames!  The application may be doing too much work on its main thread.")
		d.log("D", "ProfileInstaller", pid, "Installing profile for "+app.Package)
		if app.Sidekick {
			d.log("I", "FixThisSidekick", pid, "listening on @"+d.sidekickSocket()+" (protocol "+sidekick.Protocol+")")
		}
		d.log("I", "ActivityTaskManager", 1423, fmt.Sprintf("Displayed %s: +412ms", shortComponent(app.Package, app.LauncherActivity)))
	}
}

// cmdLogcat supports -d (dump and exit), -c (clear) and -t N (last N lines);
// without -d it prints the buffer and follows until the caller goes away.
func cmdLogcat(e *cmdEnv) int {
	dump, clear, tail := false, false, 0
	args := e.args[1:]
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-d":
			dump = true
		case a == "-c":
			clear = true
		case a == "-t" && i+1 < len(args):
			tail, _ = strconv.Atoi(args[i+1])
			dump = true
			i++
		case a == "-v" || a == "-b" || a == "-s" && i+1 < len(args) && !strings.Contains(args[i+1], ":"):
			i++
		}
	}
	d := e.dev
	d.logs.mu.Lock()
	if clear {
		d.logs.lines = nil
		d.logs.mu.Unlock()
		return 0
	}
	lines := append([]string(nil), d.logs.lines...)
	d.logs.mu.Unlock()
	if tail > 0 && tail < len(lines) {
		lines = lines[len(lines)-tail:]
	}
	e.printf("--------- beginning of main\n")
	for _, l := range lines {
		e.printf("%s\n", l)
	}
	if dump {
		return 0
	}
	<-e.ctx.Done()
	return 130
}

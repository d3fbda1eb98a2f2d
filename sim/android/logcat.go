// The log buffers (main, system, crash) and logcat over them.
package android

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"fixthis/internal/sidekick"
)

// logBuffer holds the device's log buffers (main, system, crash) as one ring of
// entries in time order, seeded with a boot and an app start and fed by what
// happens on the device.
type logBuffer struct {
	mu      sync.Mutex
	entries []logEntry
}

type logEntry struct {
	at       time.Time
	buf      string // main, system or crash
	pid, tid int
	level    string
	tag, msg string
}

const logBufferMax = 5000

// systemPid and the system_server threads its services log from.
const (
	systemPid     = 1423
	amTid         = 1530 // ActivityManager
	inputTid      = 1470 // InputDispatcher
	systemLogUser = 1566 // ActivityTaskManager
)

// systemTags are logged to the system buffer, as system_server's services do.
var systemTags = map[string]bool{
	"ActivityManager": true, "ActivityTaskManager": true, "InputDispatcher": true,
	"WindowManager": true, "PackageManager": true,
}

// log appends a line from pid's main thread, to the buffer its tag belongs to.
func (d *Device) log(level, tag string, pid int, msg string) {
	buf, tid := "main", pid
	if systemTags[tag] {
		buf = "system"
		tid = map[string]int{"ActivityManager": amTid, "InputDispatcher": inputTid}[tag]
		if tid == 0 {
			tid = systemLogUser
		}
	}
	d.logTo(buf, level, tag, pid, tid, msg)
}

// logTo appends one entry; a message with newlines becomes one entry per line,
// as Log.e with a throwable does.
func (d *Device) logTo(buf, level, tag string, pid, tid int, msg string) {
	now := time.Now()
	d.logs.mu.Lock()
	defer d.logs.mu.Unlock()
	for _, line := range strings.Split(msg, "\n") {
		d.logs.entries = append(d.logs.entries, logEntry{at: now, buf: buf, pid: pid, tid: tid, level: level, tag: tag, msg: line})
	}
	if len(d.logs.entries) > logBufferMax {
		d.logs.entries = d.logs.entries[len(d.logs.entries)-logBufferMax:]
	}
}

// AppLog writes msg to the main buffer from the running app's main thread,
// as android.util.Log does (one entry per line). It is how a test plants what
// an app would log; with no app process it returns ErrAppNotRunning.
func (d *Device) AppLog(level, tag, msg string) error {
	pid := d.appPid()
	if pid == 0 {
		return ErrAppNotRunning
	}
	d.logTo("main", level, tag, pid, pid, msg)
	return nil
}

// threadtime formats an entry the way `logcat -v threadtime` does.
func (e logEntry) threadtime() string {
	return fmt.Sprintf("%s %5d %5d %s %-8s: %s", e.at.Format("01-02 15:04:05.000"), e.pid, e.tid, e.level, e.tag, e.msg)
}

func (d *Device) logInput(kind string, v ...int) {
	d.log("D", "InputDispatcher", systemPid, fmt.Sprintf("Injected %s %v", kind, v))
	if pid := d.appPid(); pid != 0 {
		d.log("D", "ViewRootImpl", pid, fmt.Sprintf("[%s] %s handled by Compose", d.profile.App.Label, kind))
	}
}

// seedLog writes what a freshly booted phone with the app open would have logged.
func (d *Device) seedLog() {
	app := d.profile.App
	d.log("I", "init", 1, "Service 'adbd' (pid 612) started")
	d.log("I", "ActivityManager", systemPid, "System now ready")
	d.log("I", "ActivityTaskManager", systemPid, fmt.Sprintf("START u0 {act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] flg=0x10200000 cmp=%s} from uid 10071", shortComponent(app.Package, app.LauncherActivity)))
	if pid := d.appPid(); pid != 0 {
		d.log("I", "Choreographer", pid, "Skipped 31 frames!  The application may be doing too much work on its main thread.")
		d.log("D", "ProfileInstaller", pid, "Installing profile for "+app.Package)
		if app.Sidekick {
			d.log("I", "FixThisSidekick", pid, "listening on @"+d.sidekickBound+" (protocol "+sidekick.Version+")")
		}
		d.log("I", "ActivityTaskManager", systemPid, fmt.Sprintf("Displayed %s: +412ms", shortComponent(app.Package, app.LauncherActivity)))
	}
}

// logcatArgs is what a logcat command line asks for.
type logcatArgs struct {
	dump, clear bool
	tail        int       // -t N: the last N entries
	since       time.Time // -t/-T '<time>': entries at or after it
	buffers     map[string]bool
	pid         int
	filter      logFilter
}

// parseLogcatArgs reads the options FixThis and people use; others are ignored
// with their values, as logcat's format and filter options do not change which
// entries exist.
func parseLogcatArgs(args []string, now time.Time) (logcatArgs, error) {
	a := logcatArgs{buffers: map[string]bool{}}
	value := func(i *int, name string) (string, error) {
		if *i+1 >= len(args) {
			return "", fmt.Errorf("option %s requires an argument", name)
		}
		*i++
		return args[*i], nil
	}
	for i := 0; i < len(args); i++ {
		arg := args[i]
		switch {
		case arg == "-d":
			a.dump = true
		case arg == "-c":
			a.clear = true
		case arg == "-t" || arg == "-T":
			v, err := value(&i, arg)
			if err != nil {
				return a, err
			}
			if n, err := strconv.Atoi(v); err == nil {
				a.tail = n
			} else if t, ok := parseLogcatTime(v, now); ok {
				a.since = t
			} else {
				return a, fmt.Errorf("unknown time format: %s", v)
			}
			a.dump = a.dump || arg == "-t"
		case arg == "-b":
			v, err := value(&i, arg)
			if err != nil {
				return a, err
			}
			for b := range strings.SplitSeq(v, ",") {
				if b == "all" || b == "default" {
					b = "main,system,crash"
				}
				for bb := range strings.SplitSeq(b, ",") {
					a.buffers[bb] = true
				}
			}
		case strings.HasPrefix(arg, "--pid="):
			a.pid, _ = strconv.Atoi(strings.TrimPrefix(arg, "--pid="))
		case arg == "--pid":
			v, err := value(&i, arg)
			if err != nil {
				return a, err
			}
			a.pid, _ = strconv.Atoi(v)
		case arg == "-s":
			a.filter.silent()
		case arg == "-v" || arg == "-e" || arg == "-m" || arg == "-f" || arg == "-r" || arg == "-n" || arg == "-G":
			i++
		case !strings.HasPrefix(arg, "-"):
			if err := a.filter.add(arg); err != nil {
				return a, err
			}
		}
	}
	if len(a.buffers) == 0 {
		a.buffers = map[string]bool{"main": true, "system": true, "crash": true}
	}
	return a, nil
}

// parseLogcatTime reads -t's time forms: 'sssss.mmm' (seconds since the epoch),
// 'MM-DD hh:mm:ss.mmm' and 'YYYY-MM-DD hh:mm:ss.mmm' (the device's local time).
func parseLogcatTime(v string, now time.Time) (time.Time, bool) {
	if secs, err := strconv.ParseFloat(v, 64); err == nil && strings.Contains(v, ".") {
		return time.UnixMilli(int64(secs * 1000)), true
	}
	for _, layout := range []string{"2006-01-02 15:04:05.000", "01-02 15:04:05.000"} {
		if t, err := time.ParseInLocation(layout, v, time.Local); err == nil {
			if layout == "01-02 15:04:05.000" {
				t = t.AddDate(now.Year(), 0, 0)
			}
			return t, true
		}
	}
	return time.Time{}, false
}

// cmdLogcat dumps (-d, -t) or follows the log, printing
// "--------- beginning of <buffer>" before the first entry of each buffer that
// has any, as logcat does; an empty read prints nothing.
func cmdLogcat(e *cmdEnv) int {
	d := e.dev
	a, err := parseLogcatArgs(e.Args[1:], time.Now())
	if err != nil {
		return e.Errorf(1, "logcat: %v\n", err)
	}
	d.logs.mu.Lock()
	if a.clear {
		d.logs.entries = nil
		d.logs.mu.Unlock()
		return 0
	}
	var entries []logEntry
	for _, en := range d.logs.entries {
		if a.buffers[en.buf] && (a.pid == 0 || en.pid == a.pid) && !en.at.Before(a.since) && a.filter.shows(en.tag, en.level) {
			entries = append(entries, en)
		}
	}
	d.logs.mu.Unlock()
	if a.tail > 0 && a.tail < len(entries) {
		entries = entries[len(entries)-a.tail:]
	}
	// A dump goes out in large writes, as logcat's buffered stdout does; a
	// write per line would cost an adb packet each.
	var out bytes.Buffer
	begun := map[string]bool{}
	for _, en := range entries {
		if !begun[en.buf] {
			begun[en.buf] = true
			fmt.Fprintf(&out, "--------- beginning of %s\n", en.buf)
		}
		out.WriteString(en.threadtime())
		out.WriteByte('\n')
		if out.Len() >= 64<<10 {
			_, _ = e.Stdout.Write(out.Bytes())
			out.Reset()
		}
	}
	_, _ = e.Stdout.Write(out.Bytes())
	if a.dump {
		return 0
	}
	<-e.Ctx.Done()
	return 130
}

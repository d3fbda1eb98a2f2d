package evidence

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// LogcatSummary is what the app's log said around the freeze.
type LogcatSummary struct {
	Pids     []int  `json:"pids"`     // the app's processes seen in the window
	Lines    int    `json:"lines"`    // app lines kept (crash and ANR records included)
	Errors   int    `json:"errors"`   // E, F and A lines among them
	Warnings int    `json:"warnings"` // W lines among them
	Crash    *Crash `json:"crash,omitempty"`
	ANR      *ANR   `json:"anr,omitempty"`
}

// Crash is the newest Java crash of the app.
type Crash struct {
	Time      string `json:"time"`
	Pid       int    `json:"pid"`
	Thread    string `json:"thread"`
	Exception string `json:"exception"`           // e.g. java.lang.IllegalStateException
	Message   string `json:"message,omitempty"`   // the text after the type
	Frame     string `json:"frame,omitempty"`     // the first frame in the app's code
	RootCause string `json:"rootCause,omitempty"` // the deepest "Caused by:" type, when there is one
}

// ANR is the newest "Application Not Responding" record for the app.
type ANR struct {
	Time     string `json:"time"`
	Pid      int    `json:"pid,omitempty"`
	Activity string `json:"activity,omitempty"`
	Reason   string `json:"reason,omitempty"`
}

// logLine is one threadtime line: `MM-DD hh:mm:ss.mmm  PID  TID L TAG: MSG`.
type logLine struct {
	time     string
	pid, tid int
	level    byte
	tag, msg string
}

// threadtime is logcat's default format since Android 7. The tag is padded
// to 8 characters before its colon; it may itself contain spaces.
var threadtime = regexp.MustCompile(`^(\d\d-\d\d \d\d:\d\d:\d\d\.\d{3})\s+(\d+)\s+(\d+)\s+([VDIWEFA])\s(.*?)\s*: (.*)$`)

func parseLogLine(s string) (logLine, bool) {
	m := threadtime.FindStringSubmatch(strings.TrimRight(s, "\r"))
	if m == nil {
		return logLine{}, false
	}
	pid, _ := strconv.Atoi(m[2])
	tid, _ := strconv.Atoi(m[3])
	return logLine{time: m[1], pid: pid, tid: tid, level: m[4][0], tag: m[5], msg: m[6]}, true
}

var (
	// ActivityManager: `Start proc 4120:com.x/u0a187 for top-activity {...}`
	// (Android 7+) and `Start proc com.x for activity ...: pid=4120 uid=...` (older).
	startProcNew = regexp.MustCompile(`^Start proc (\d+):([^/\s]+)/`)
	startProcOld = regexp.MustCompile(`^Start proc ([^\s]+) for .*: pid=(\d+)`)
	// AndroidRuntime, right after FATAL EXCEPTION: `Process: com.x, PID: 4120`.
	crashProcess = regexp.MustCompile(`^Process: ([^\s,]+), PID: (\d+)`)
	// ActivityManager: `ANR in com.x (com.x/.MainActivity)`.
	anrIn = regexp.MustCompile(`^ANR in ([^\s(]+)(?:\s+\(([^)]*)\))?`)
	// `\tat com.x.Foo.bar(Foo.kt:42)`
	frameLine = regexp.MustCompile(`^\s*at\s+(\S+\(.*\))\s*$`)
)

// ownedBy reports whether a process name belongs to pkg: the package itself
// or one of its `pkg:remote` processes.
func ownedBy(process, pkg string) bool {
	return process == pkg || strings.HasPrefix(process, pkg+":")
}

// ParseLogcat summarises threadtime output (main, system and crash buffers
// merged) for package pkg. pid is the app's live process (0 when it is gone);
// the app's other and earlier processes are found in the log itself, from
// ActivityManager's start lines and a crash's `Process: <pkg>, PID: n` line.
// It returns the summary and the app's lines (crash and ANR records included).
func ParseLogcat(text, pkg string, pid int) (LogcatSummary, []string) {
	sum, kept, _ := parseLogcat(text, pkg, pid)
	return sum, kept
}

// parseLogcat is ParseLogcat that also counts the lines in no threadtime format
// (buffer banners such as "--------- beginning of main" and blank lines aside): a
// device printing another format shows up there, not as an empty summary. pids
// are the app's processes known beforehand (its live one, or those an earlier
// parse of the whole log found).
func parseLogcat(text, pkg string, known ...int) (LogcatSummary, []string, int) {
	return readLogText(text).summarize(pkg, known...)
}

// logText is a log split into lines, each parsed once (ok: in threadtime format),
// for the passes that read it: the app's summary and the lines other processes
// wrote under OkHttp's tags (otherHTTPLines).
type logText struct {
	raw   []string
	lines []logLine
	ok    []bool
}

func readLogText(text string) logText {
	raw := strings.Split(text, "\n")
	t := logText{raw: raw, lines: make([]logLine, len(raw)), ok: make([]bool, len(raw))}
	for i, s := range raw {
		t.lines[i], t.ok[i] = parseLogLine(s)
	}
	return t
}

// summarize is parseLogcat on a log already split and parsed.
func (t logText) summarize(pkg string, known ...int) (LogcatSummary, []string, int) {
	raw, lines, ok := t.raw, t.lines, t.ok
	pids := map[int]bool{}
	for _, pid := range known {
		if pid > 0 {
			pids[pid] = true
		}
	}
	unread := 0
	for i, s := range raw {
		l, good := lines[i], ok[i]
		if !good {
			if t := strings.TrimSpace(s); t != "" && !strings.HasPrefix(t, "--------- ") {
				unread++
			}
			continue
		}
		if m := startProcNew.FindStringSubmatch(l.msg); m != nil && ownedBy(m[2], pkg) {
			n, _ := strconv.Atoi(m[1])
			pids[n] = true
		} else if m := startProcOld.FindStringSubmatch(l.msg); m != nil && ownedBy(m[1], pkg) {
			n, _ := strconv.Atoi(m[2])
			pids[n] = true
		} else if m := crashProcess.FindStringSubmatch(l.msg); m != nil && ownedBy(m[1], pkg) {
			n, _ := strconv.Atoi(m[2])
			pids[n] = true
		}
	}
	var sum LogcatSummary
	var kept []string
	// keep takes lines [from, end) into the summary and the kept text.
	keep := func(from, end int) {
		for j := from; j < end; j++ {
			kept = append(kept, strings.TrimRight(raw[j], "\r"))
			sum.count(lines[j])
		}
	}
	for i := 0; i < len(lines); i++ {
		if !ok[i] {
			continue
		}
		l := lines[i]
		if m := anrIn.FindStringSubmatch(l.msg); m != nil && ownedBy(m[1], pkg) {
			anr, end := parseANR(lines, ok, i, m[2])
			sum.ANR = &anr
			if anr.Pid > 0 {
				pids[anr.Pid] = true
			}
			keep(i, end)
			i = end - 1
			continue
		}
		if !pids[l.pid] {
			continue
		}
		if l.tag == "AndroidRuntime" && strings.HasPrefix(l.msg, "FATAL EXCEPTION: ") {
			c, end := parseCrash(lines, ok, i, pkg)
			if c.Exception != "" {
				sum.Crash = &c
			}
			keep(i, end)
			i = end - 1
			continue
		}
		keep(i, i+1)
	}
	for p := range pids {
		sum.Pids = append(sum.Pids, p)
	}
	slices.Sort(sum.Pids)
	return sum, kept, unread
}

func (s *LogcatSummary) count(l logLine) {
	s.Lines++
	switch l.level {
	case 'E', 'F', 'A':
		s.Errors++
	case 'W':
		s.Warnings++
	}
}

// parseCrash reads the AndroidRuntime record starting at lines[start] (the
// FATAL EXCEPTION line): the lines of the same thread and tag that follow it.
func parseCrash(lines []logLine, ok []bool, start int, pkg string) (Crash, int) {
	head := lines[start]
	c := Crash{Time: head.time, Pid: head.pid, Thread: strings.TrimPrefix(head.msg, "FATAL EXCEPTION: ")}
	var fallback string
	end := start + 1
	for ; end < len(lines); end++ {
		l := lines[end]
		if !ok[end] || l.pid != head.pid || l.tid != head.tid || l.tag != head.tag {
			break
		}
		msg := strings.TrimSpace(l.msg)
		switch {
		case strings.HasPrefix(msg, "Process: "):
			continue
		case strings.HasPrefix(msg, "at "):
			m := frameLine.FindStringSubmatch(msg)
			if m == nil {
				continue
			}
			if c.Frame == "" && strings.HasPrefix(m[1], pkg+".") {
				c.Frame = m[1]
			}
			if fallback == "" && !frameworkFrame(m[1]) {
				fallback = m[1]
			}
		case strings.HasPrefix(msg, "Caused by: "):
			typ, _ := splitException(strings.TrimPrefix(msg, "Caused by: "))
			c.RootCause = typ
		case strings.HasPrefix(msg, "..."):
		case c.Exception == "":
			c.Exception, c.Message = splitException(msg)
		}
	}
	if c.Frame == "" {
		c.Frame = fallback
	}
	return c, end
}

// splitException splits `java.lang.IllegalStateException: token refresh
// failed` into its type and message.
func splitException(s string) (string, string) {
	typ, msg, _ := strings.Cut(s, ": ")
	return strings.TrimSpace(typ), strings.TrimSpace(msg)
}

// frameworkFrame reports whether a frame belongs to the platform or the
// language runtime rather than to the app (or its libraries).
func frameworkFrame(f string) bool {
	for _, p := range []string{"android.", "androidx.", "com.android.", "java.", "javax.", "kotlin.", "kotlinx.", "dalvik.", "libcore.", "sun.", "com.google.android.material."} {
		if strings.HasPrefix(f, p) {
			return true
		}
	}
	return false
}

// parseANR reads ActivityManager's ANR record starting at lines[start]: the
// lines from the same system thread that follow (PID:, Reason:, Load:, ...).
func parseANR(lines []logLine, ok []bool, start int, activity string) (ANR, int) {
	head := lines[start]
	a := ANR{Time: head.time, Activity: activity}
	end := start + 1
	for ; end < len(lines); end++ {
		l := lines[end]
		if !ok[end] || l.pid != head.pid || l.tid != head.tid || l.tag != head.tag {
			break
		}
		switch msg := strings.TrimSpace(l.msg); {
		case strings.HasPrefix(msg, "PID: "):
			a.Pid, _ = strconv.Atoi(strings.TrimPrefix(msg, "PID: "))
		case strings.HasPrefix(msg, "Reason: ") && a.Reason == "":
			a.Reason = strings.TrimPrefix(msg, "Reason: ")
		}
	}
	return a, end
}

// Line renders the summary as one bounded line.
func (s LogcatSummary) Line() string {
	counts := fmt.Sprintf("%d %s, %d %s in %d app %s",
		s.Errors, plural(s.Errors, "error", "errors"), s.Warnings, plural(s.Warnings, "warning", "warnings"),
		s.Lines, plural(s.Lines, "line", "lines"))
	switch {
	case s.Crash != nil:
		c := s.Crash
		what := c.Exception
		if c.Message != "" {
			what += ": " + c.Message
		}
		if c.Frame != "" {
			what += " at " + c.Frame
		}
		return oneLine("crash: " + what + "; " + counts)
	case s.ANR != nil:
		reason := s.ANR.Reason
		if reason == "" {
			reason = "no reason logged"
		}
		return oneLine("ANR: " + reason + "; " + counts)
	}
	return oneLine("no crash or ANR; " + counts)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

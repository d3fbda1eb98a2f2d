package evidence

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"fixthis/adb"
)

// One logcat read serves the logcat and network collectors: the device dumps
// its buffers once (with one pidof beside it), the app's lines are picked out
// once and only those are redacted, once. Reading the buffer twice, and
// redacting every line of it twice, was most of the network collector's time.

// httpLogTags are the tags OkHttp's own Android logger writes under
// (okhttp/src/main/kotlin/okhttp3/internal/platform/android/AndroidLog.kt,
// knownLoggers: OkHttpClient → "okhttp.OkHttpClient", the okhttp3 package →
// "OkHttp"). Lines under them are read as HTTP logging from whichever process
// wrote them: a script or a test logging with `adb shell log -t
// okhttp.OkHttpClient …` writes from the log command's own process.
var httpLogTags = map[string]bool{"okhttp.OkHttpClient": true, "OkHttp": true}

// appLogRead is the result of the shared read.
type appLogRead struct {
	done chan struct{}
	// app holds the app's lines (its crash and ANR records included), redacted.
	app []string
	// withBodies is app redacted with the bodies' text kept (Request.Bodies).
	withBodies []string
	// other holds the lines other processes wrote under httpLogTags, redacted.
	other []string
	pid   int // the app's live process, 0 when none runs
	// pids are all the app's processes the whole log names (its earlier and
	// secondary ones too), which the app's lines alone no longer show.
	pids []int
	// unread counts lines in no threadtime format.
	unread int
	reason Reason
}

// logWindow is where the shared read starts: the earlier of the log window
// (Since) and the network window (NetworkLookback before the freeze).
func logWindow(req Request, now time.Time) time.Time {
	since := req.Since
	if since.IsZero() {
		since = now.Add(-DefaultLookback)
	}
	if n := networkSince(req, now); n.Before(since) {
		return n
	}
	return since
}

// startLogRead starts the shared read under ctx (the preset's budget and
// one collector's timeout); the collectors wait for it with wait.
func startLogRead(ctx context.Context, sh Shell, req Request) *appLogRead {
	lr := &appLogRead{done: make(chan struct{})}
	go func() {
		defer close(lr.done)
		text, pid, r := readLog(ctx, sh, req, logcatCommand(logWindow(req, time.Now())))
		lr.pid, lr.reason = pid, r
		if r != ReasonNone {
			return
		}
		lt := readLogText(text)
		sum, kept, unread := lt.summarize(req.Package, pid)
		lr.unread, lr.pids = unread, sum.Pids
		lr.app = redactLines(kept, Redact)
		if req.Bodies {
			lr.withBodies = redactLines(kept, RedactKeepingBodies)
		}
		lr.other = redactLines(otherHTTPLines(lt, req.Package, sum.Pids), Redact)
	}()
	return lr
}

// sharedLog is the preset's shared read, or a read of its own for a collector
// run alone.
func (req Request) sharedLog(ctx context.Context, sh Shell) (*appLogRead, Reason) {
	lr := req.log
	if lr == nil {
		lr = startLogRead(ctx, sh, req)
	}
	return lr.wait(ctx)
}

// wait returns the read, or a timeout when ctx ends first.
func (lr *appLogRead) wait(ctx context.Context) (*appLogRead, Reason) {
	select {
	case <-lr.done:
		return lr, lr.reason
	case <-ctx.Done():
		return nil, ReasonTimeout
	}
}

// redactLines redacts lines as one text, so a body or key block across lines
// is followed as it is in the log.
func redactLines(lines []string, redact func(string) string) []string {
	if len(lines) == 0 {
		return nil
	}
	return strings.Split(redact(strings.Join(lines, "\n")), "\n")
}

// otherHTTPLines are the call lines that `log` commands wrote under
// httpLogTags: the lines that start, answer or end a call and the size and type
// headers (httpMarkers). Each `log` command is a process of its own that writes one
// line and exits, so only a process that wrote exactly one line in the whole read
// counts: another app logging with OkHttp writes several lines a call (at least
// its start and its answer) from one process, and is left out, as is every process
// the log names as another app's. Headers and bodies are never taken from them:
// a body's lines could not be followed to redact them.
func otherHTTPLines(lt logText, pkg string, appPids []int) []string {
	others := map[int]bool{}
	for _, p := range appPids {
		others[p] = true
	}
	linesOf := map[int]int{} // every line a process wrote, whatever its tag
	type candidate struct {
		pid  int
		line string
	}
	var found []candidate
	for i, l := range lt.lines {
		if !lt.ok[i] {
			continue
		}
		linesOf[l.pid]++
		if m := startProcNew.FindStringSubmatch(l.msg); m != nil && !ownedBy(m[2], pkg) {
			n, _ := strconv.Atoi(m[1])
			others[n] = true
			continue
		}
		if m := startProcOld.FindStringSubmatch(l.msg); m != nil && !ownedBy(m[1], pkg) {
			n, _ := strconv.Atoi(m[2])
			others[n] = true
			continue
		}
		if httpLogTags[l.tag] && httpMarker(l.msg) {
			found = append(found, candidate{l.pid, strings.TrimRight(lt.raw[i], "\r")})
		}
	}
	var out []string
	for _, c := range found {
		if !others[c.pid] && linesOf[c.pid] == 1 {
			out = append(out, c.line)
		}
	}
	return out
}

// httpMarkers start the OkHttp and Ktor lines a call is read from.
var httpMarkers = []string{"--> ", "<-- ", "REQUEST", "RESPONSE", "METHOD: ", "FROM: ", "Content-Type: ", "Content-Length: "}

func httpMarker(msg string) bool {
	msg = strings.TrimSpace(msg)
	for _, m := range httpMarkers {
		if strings.HasPrefix(msg, m) {
			return true
		}
	}
	return false
}

// logcatCommand is `logcat -d -v threadtime -b main,system,crash -t
// '<epoch>.<ms>'`: every buffer that holds the app's lines, its crashes
// (crash buffer, Android 7+) and ActivityManager's ANR records, since the
// given time. The epoch form of -t does not depend on the device's zone.
func logcatCommand(since time.Time) string {
	ms := since.UnixMilli()
	return adb.Command("logcat", "-d", "-v", "threadtime", "-b", "main,system,crash", "-t", fmt.Sprintf("%d.%03d", ms/1000, ms%1000))
}

// logcatFallbackCommand is `logcat -d -v threadtime -t 5000`: the newest lines
// of the default buffers, for logcats that refuse the command above.
const logcatFallbackCommand = "logcat -d -v threadtime -t 5000"

// pidofCommand is `pidof <pkg>`: the app's live process, if any.
func pidofCommand(pkg string) string { return adb.Command("pidof", pkg) }

// readLog runs a logcat command and, at the same time, pidof for the app's
// live process (0 when none runs). A logcat that refuses the command (before
// Android 7 there is no crash buffer and -t takes no epoch time) gets the
// fallback: the default buffers' newest lines, the closest a device can give.
// The text is not redacted: the caller redacts the lines it keeps.
func readLog(ctx context.Context, sh Shell, req Request, cmd string) (string, int, Reason) {
	var pid int
	pidDone := make(chan struct{})
	go func() {
		defer close(pidDone)
		// pidof exits 1 when nothing runs; that is an answer, not a failure.
		if res, err := sh.Shell(ctx, pidofCommand(req.Package)); err == nil {
			f := strings.Fields(string(res.Stdout))
			if len(f) > 0 {
				pid, _ = strconv.Atoi(f[0])
			}
		}
	}()
	text, r := rawShell(ctx, sh, cmd)
	if r == ReasonCommandFailed {
		text, r = rawShell(ctx, sh, logcatFallbackCommand)
	}
	<-pidDone
	return text, pid, r
}

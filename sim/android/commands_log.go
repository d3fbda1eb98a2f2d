// The log command, toybox's log.c (toys/android/log.c, log_main): what a shell
// user or script writes to logcat.
package android

import (
	"bufio"
	"strings"
	"sync"
)

// logMaxMessage is the size log.c's buffer holds for the joined arguments
// (its `>=1024` check in log_main); longer is cut, with an error.
const logMaxMessage = 1024

// logPriorities are log.c's -p letters (its "defisvw" table) and the level
// each one is, as logcat prints it.
var logPriorities = map[byte]string{'d': "D", 'e': "E", 'f': "F", 'i': "I", 's': "S", 'v': "V", 'w': "W"}

// shellProcs hands out the pids of programs the shell runs, which each run
// as a process of their own: a log line's pid is the log command's.
type shellProcs struct {
	mu   sync.Mutex
	next int
}

func (p *shellProcs) pid() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.next == 0 {
		p.next = 20311 // past the app's pids on a phone that booted a while ago
	}
	p.next += 3
	return p.next
}

// cmdLog is `log [-p PRI] [-t TAG] [MESSAGE...]`: the arguments joined by
// spaces, at INFO under the tag "log" unless -p and -t say otherwise, into the
// main buffer (__android_log_write). Without arguments each line of stdin is
// a message, and then, as log_main's last write does, an empty one.
func cmdLog(e *cmdEnv) int {
	pri, tag := "I", "log"
	var words []string
	args := e.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if len(words) > 0 || len(a) < 2 || a[0] != '-' {
			words = append(words, a)
			continue
		}
		if a == "--" {
			words = append(words, args[i+1:]...)
			break
		}
		opt, val := a[1], a[2:]
		if opt != 'p' && opt != 't' {
			return e.Errorf(1, "log: Unknown option '%s' (see \"log --help\")\n", a[1:])
		}
		if val == "" {
			if i+1 >= len(args) {
				return e.Errorf(1, "log: Missing argument to -%c (see \"log --help\")\n", opt)
			}
			i++
			val = args[i]
		}
		if opt == 't' {
			tag = val
			continue
		}
		p, ok := logPriorities[strings.ToLower(val)[0]]
		if !ok || len(val) != 1 {
			return e.Errorf(1, "log: bad -p '%s'\n", val)
		}
		pri = p
	}
	pid := e.dev.shell.pid()
	if len(words) == 0 {
		sc := bufio.NewScanner(e.Stdin)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			e.dev.logTo("main", pri, tag, pid, pid, sc.Text())
		}
		e.dev.logTo("main", pri, tag, pid, pid, "")
		return 0
	}
	msg, status := strings.Join(words, " "), 0
	if len(msg) >= logMaxMessage {
		msg, status = msg[:logMaxMessage], e.Errorf(1, "log: log cut at 1024 bytes\n")
	}
	e.dev.logTo("main", pri, tag, pid, pid, msg)
	return status
}

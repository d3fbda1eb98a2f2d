package network

import (
	"regexp"
	"strconv"
	"strings"
)

// line is one log line split into what pairing needs: when, which thread
// and tag wrote it, and the message.
type line struct {
	time     string // "MM-DD hh:mm:ss.mmm", "" when the format has none
	pid, tid int
	tag      string
	msg      string
	// byTag makes the tag alone the writer (ParseByTag).
	byTag bool
}

// thread identifies the writer of a line: a call's OkHttp lines come from the
// thread that runs it, under one tag.
type thread struct {
	pid, tid int
	tag      string
}

func (l line) thread() thread {
	if l.byTag {
		return thread{tag: l.tag}
	}
	return thread{l.pid, l.tid, l.tag}
}

// The logcat formats a log reaches FixThis in. threadtime is what the
// collector asks the device for; the others are how people paste logs into
// issues (Android Studio's old and new layouts, `-v time`, `-v brief`), so
// samples from the wild parse too. A tag ends at the first ": ".
var (
	threadtime = regexp.MustCompile(`^(?:\d{4}-)?(\d\d-\d\d \d\d:\d\d:\d\d\.\d{3})\s+(\d+)\s+(\d+)\s+[VDIWEFA]\s(.*?)\s*: (.*)$`)
	studioOld  = regexp.MustCompile(`^(?:\d{4}-)?(\d\d-\d\d \d\d:\d\d:\d\d\.\d{3})\s+(\d+)-(\d+)/\S*\s+[VDIWEFA]/(.*?): (.*)$`)
	studioNew  = regexp.MustCompile(`^\d{4}-(\d\d-\d\d \d\d:\d\d:\d\d\.\d{3})\s+(\d+)-(\d+)\s+(\S+)\s+\S+\s+[VDIWEFA]\s+(.*)$`)
	brief      = regexp.MustCompile(`^(?:(?:\d{4}-)?(\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}):?\s+)?[VDIWEFA]/([^:(]*?)\s*(?:\(\s*(\d+)\))?: (.*)$`)
)

// parseLine reads one line in any of the formats above; a line in none is
// all message, from an unknown thread.
func parseLine(s string) line {
	// Pasted logs are often indented; a device's never are. The end keeps its
	// blanks: an empty message is `TAG: ` with nothing after the blank.
	s = strings.TrimRight(strings.TrimLeft(s, " \t"), "\r\n")
	if l, ok := fastThreadtime(s); ok {
		return l
	}
	if m := threadtime.FindStringSubmatch(s); m != nil {
		return line{time: m[1], pid: atoi(m[2]), tid: atoi(m[3]), tag: m[4], msg: m[5]}
	}
	if m := studioOld.FindStringSubmatch(s); m != nil {
		return line{time: m[1], pid: atoi(m[2]), tid: atoi(m[3]), tag: m[4], msg: m[5]}
	}
	if m := studioNew.FindStringSubmatch(s); m != nil {
		return line{time: m[1], pid: atoi(m[2]), tid: atoi(m[3]), tag: m[4], msg: m[5]}
	}
	if m := brief.FindStringSubmatch(s); m != nil {
		return line{time: m[1], pid: atoi(m[3]), tag: m[2], msg: m[4]}
	}
	return line{msg: strings.TrimSpace(s)}
}

// atoi reads a pid or tid; anything out of range is 0, an unknown thread.
func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 1<<31 {
		return 0
	}
	return n
}

// millis turns a logcat time into milliseconds since the start of its year
// (months as 31 days: only differences of nearby times are used), ok false
// for an empty or malformed time.
func millis(t string) (int64, bool) {
	if len(t) != 18 {
		return 0, false
	}
	var f [6]int64
	for i, span := range [][2]int{{0, 2}, {3, 5}, {6, 8}, {9, 11}, {12, 14}, {15, 18}} {
		n, err := strconv.Atoi(t[span[0]:span[1]])
		if err != nil {
			return 0, false
		}
		f[i] = int64(n)
	}
	return ((((f[0]*31+f[1])*24+f[2])*60+f[3])*60+f[4])*1000 + f[5], true
}

// between is the time from a to b in ms, or nil when either is unknown or
// the difference makes no sense (b before a, or more than a day apart).
func between(a, b string) *int64 {
	ta, ok1 := millis(a)
	tb, ok2 := millis(b)
	if !ok1 || !ok2 {
		return nil
	}
	d := tb - ta
	if d < 0 && ta > 11*31*24*3600*1000 { // the call ran across New Year
		d += 12 * 31 * 24 * 3600 * 1000
	}
	if d < 0 || d > 24*3600*1000 {
		return nil
	}
	return &d
}

// Relevant is a cheap test that a line may belong to an HTTP log: lines
// without any of these words skip the format regexps, which keeps a buffer
// of a million unrelated lines fast, and a collector can drop them unread.
func Relevant(s string) bool {
	for _, w := range []string{"--> ", "<-- ", "REQUEST", "RESPONSE", "METHOD: ", "FROM: ", "BODY", "Content-", "content-"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// fastThreadtime reads the common case of threadtime without a regexp:
// `MM-DD hh:mm:ss.mmm  PID  TID L TAG     : MSG`. Anything unusual (a year,
// a zone, odd spacing) is left to the regexp.
func fastThreadtime(s string) (line, bool) {
	if len(s) < 26 || s[2] != '-' || s[5] != ' ' || s[8] != ':' || s[11] != ':' || s[14] != '.' || s[18] != ' ' {
		return line{}, false
	}
	for _, i := range [...]int{0, 1, 3, 4, 6, 7, 9, 10, 12, 13, 15, 16, 17} {
		if s[i] < '0' || s[i] > '9' {
			return line{}, false
		}
	}
	rest := strings.TrimLeft(s[18:], " ")
	pid, rest, ok := digits(rest)
	if !ok {
		return line{}, false
	}
	tid, rest, ok := digits(strings.TrimLeft(rest, " "))
	if !ok || len(rest) < 4 || rest[0] != ' ' || !strings.ContainsRune("VDIWEFA", rune(rest[1])) || rest[2] != ' ' {
		return line{}, false
	}
	tag, msg, ok := strings.Cut(rest[3:], ": ")
	if !ok {
		return line{}, false
	}
	return line{time: s[:18], pid: pid, tid: tid, tag: strings.TrimRight(tag, " "), msg: msg}, true
}

// digits reads a run of digits at the front of s.
func digits(s string) (int, string, bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || i > 9 {
		return 0, s, false
	}
	n, _ := strconv.Atoi(s[:i])
	return n, s[i:], true
}

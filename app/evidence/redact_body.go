package evidence

import (
	"regexp"
	"strings"
)

// HTTP bodies in the log. A debug app logging at OkHttp's BODY level, or with
// Ktor's Logging plugin at BODY or ALL, prints every request and response body:
// form fields, tokens in JSON, a user's own data. Only their size and content
// type are evidence (the header and END lines say them); the body lines
// themselves become [REDACTED], one per line so the log keeps its shape.
//
// OkHttp (HttpLoggingInterceptor.kt) prints a call's lines on the thread that
// runs it: a start line (`--> POST …` or `<-- 200 …`), header lines, an empty
// line, the body, and `--> END POST (52-byte body)` or `<-- END HTTP (…)`.
// Ktor (LoggingUtils.kt appendResponseBody, Logging.kt logRequestBody) puts the
// body between `BODY START` and `BODY END`. Both are tracked per writer (the
// line's pid, tid and tag) because several calls interleave in one log.

// bodyMode is where a writer is in a call's lines.
type bodyMode byte

const (
	inCall     bodyMode = iota + 1 // after an OkHttp start line: headers, then maybe a body
	inOkBody                       // after the empty line: every line is body until END
	inKtorBody                     // between BODY START and BODY END
)

// maxWriters bounds the writers tracked; past it the state starts over.
const maxWriters = 1024

// bodyState follows each writer through its calls.
type bodyState struct{ writers map[string]bodyMode }

var (
	// okCallStart is OkHttp's request or response start line.
	okCallStart = regexp.MustCompile(`^--> [A-Z][A-Z_-]* \S|^<-- \d{3}\b`)
	// logTime is the time at the front of a header, left out of the writer key.
	logTime = regexp.MustCompile(`^(?:\d{4}-)?\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}:?\s*`)
)

// writerKey names who wrote a line: its header without the time.
func writerKey(head string) string { return logTime.ReplaceAllString(head, "") }

// line reports whether msg is body text, and so must be replaced whole. The
// lines that open and close a body are not body and go through the other
// rules like any line.
func (b *bodyState) line(head, msg string) bool {
	key := writerKey(head)
	mode := b.writers[key]
	t := strings.TrimSpace(msg)
	switch {
	case mode == inKtorBody && t != "BODY END":
		return t != ""
	case t == "BODY START":
		b.set(key, inKtorBody)
	case t == "BODY END", strings.HasPrefix(t, "--> END"), strings.HasPrefix(t, "<-- END HTTP"), strings.HasPrefix(t, "<-- HTTP FAILED"):
		delete(b.writers, key)
	case (strings.HasPrefix(t, "--> ") || strings.HasPrefix(t, "<-- ")) && okCallStart.MatchString(t):
		b.set(key, inCall)
	case mode == inCall && t == "":
		b.set(key, inOkBody)
	case mode == inOkBody:
		return t != ""
	}
	return false
}

func (b *bodyState) set(key string, m bodyMode) {
	if b.writers == nil || len(b.writers) >= maxWriters {
		b.writers = map[string]bodyMode{}
	}
	b.writers[key] = m
}

package evidence

import (
	"regexp"
	"strings"
)

// Redacted replaces anything that looks private in collected output.
const Redacted = "[REDACTED]"

// splicer rebuilds a string with some of its spans replaced, left to right,
// and hands the string back untouched when nothing was.
type splicer struct {
	s       string
	b       strings.Builder
	last    int // end of the last replaced span
	changed bool
}

// replace puts with in place of s[i:j]; i is never before the last span's end.
func (p *splicer) replace(i, j int, with string) {
	p.b.WriteString(p.s[p.last:i])
	p.b.WriteString(with)
	p.last, p.changed = j, true
}

func (p *splicer) String() string {
	if !p.changed {
		return p.s
	}
	p.b.WriteString(p.s[p.last:])
	return p.b.String()
}

// Redact returns text with secrets and private-looking values replaced by
// [REDACTED]. It works line by line and never adds or removes a line, so
// redacted logcat stays parseable; a logcat line's header (time, pids, level,
// tag) is kept as it is and only its message is redacted. Redacting twice
// changes nothing more than redacting once.
//
// The rules, in the order they run on a message (see redact_rules.go):
// HTTP bodies that OkHttp and Ktor logging print (redact_body.go), private
// key blocks, then credentials with a known shape (vendor keys,
// JWTs, bearer and basic credentials, Cookie headers, URL user info, secret
// keys' values), then URL query strings, e-mail addresses, long
// secret-looking strings, and IP addresses.
func Redact(text string) string { return redactText(text, false) }

// RedactKeepingBodies is Redact for a caller the user asked to keep HTTP
// bodies for: a logged body's lines go through the same rules as every other
// line (keys' values, key shapes, JWTs, e-mail and IP addresses, long
// secret-looking runs) instead of being replaced whole.
func RedactKeepingBodies(text string) string { return redactText(text, true) }

func redactText(text string, keepBodies bool) string {
	if text == "" {
		return text
	}
	lines := strings.Split(text, "\n")
	var pem pemState
	var bodies bodyState
	for i, line := range lines {
		head, msg := splitLogHeader(line)
		if bodies.line(head, msg) && !keepBodies {
			lines[i] = redactMessage(head) + Redacted
			continue
		}
		msg, redacted := pem.line(msg)
		if !redacted {
			msg = redactMessage(msg)
		}
		lines[i] = redactMessage(head) + msg
	}
	return strings.Join(lines, "\n")
}

// RedactLine is Redact for one line of text that has no logcat header, such
// as a summary or a crash message.
func RedactLine(s string) string {
	if s == "" {
		return s
	}
	var pem pemState
	msg, redacted := pem.line(s)
	if redacted {
		return msg
	}
	return redactMessage(msg)
}

// logHeader matches the header of the logcat formats people paste and
// FixThis reads: threadtime (`12-01 09:41:11.909  4120  4120 E Tag     : `),
// brief (`E/Tag( 4120): `), and Android Studio's
// (`2016-09-25 08:13:07.123 4120-4150/com.x D/Tag: `). The tag ends at the
// first ": ", which a tag never contains.
var logHeader = regexp.MustCompile(`^(?:` +
	`\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}(?:\s+\S+)?\s+\d+\s+\d+\s+[VDIWEFA] [^:]*?\s*: ` +
	`|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\s+\d+-\d+\s+\S+\s+\S+\s+[VDIWEFA]\s+` +
	`|(?:(?:\d{4}-)?\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}:?\s+(?:\d+-\d+/\S+\s+)?)?[VDIWEFA]/[^:(]*(?:\(\s*\d+\))?: ` +
	`)`)

// splitLogHeader splits a logcat line into its header and its message; a line
// without a header is all message.
func splitLogHeader(line string) (head, msg string) {
	if loc := logHeader.FindStringIndex(line); loc != nil {
		return line[:loc[1]], line[loc[1]:]
	}
	return "", line
}

// A private key printed line by line, as Log.d(key.toString()) or a PEM file
// dumped to the log does, spans many log lines: the BEGIN line opens the
// block, and base64 lines (and the PEM headers of an encrypted key) are
// redacted until the END line or a line that is neither.
var (
	pemBegin = regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----`)
	pemEnd   = regexp.MustCompile(`-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----`)
	pemBody  = regexp.MustCompile(`^[ \t]*(?:[A-Za-z0-9+/=]+|[A-Za-z-]+: .*|` + regexp.QuoteMeta(Redacted) + `)?[ \t\r]*$`)
)

type pemState struct{ open bool }

// line redacts msg when it is part of a private key block and reports whether
// it did; any other message is left to the other rules.
func (p *pemState) line(msg string) (string, bool) {
	if p.open {
		if loc := pemEnd.FindStringIndex(msg); loc != nil {
			p.open = false
			if strings.TrimSpace(msg[:loc[0]]) == "" {
				return msg, true
			}
			return Redacted + msg[loc[0]:], true
		}
		if pemBody.MatchString(msg) {
			if strings.TrimSpace(msg) == "" {
				return msg, true
			}
			return Redacted, true
		}
		p.open = false
	}
	loc := pemBegin.FindStringIndex(msg)
	if loc == nil {
		return msg, false
	}
	// The block may be on one line (a JSON string with \n escapes) or start here.
	head, rest := msg[loc[0]:loc[1]], msg[loc[1]:]
	if end := pemEnd.FindStringIndex(rest); end != nil {
		return redactMessage(msg[:loc[0]]) + head + Redacted + rest[end[0]:end[1]] + redactMessage(rest[end[1]:]), true
	}
	p.open = true
	if strings.TrimSpace(rest) == "" {
		return redactMessage(msg[:loc[0]]) + head, true
	}
	return redactMessage(msg[:loc[0]]) + head + Redacted, true
}

// redactAttachment runs RedactLine over every text an attachment carries.
// They come from redacted output already; this keeps the promise for any
// summary that joins pieces of it.
func redactAttachment(at *Attachment) {
	at.Summary = RedactLine(at.Summary)
	if l := at.Logcat; l != nil {
		if c := l.Crash; c != nil {
			for _, f := range []*string{&c.Thread, &c.Exception, &c.Message, &c.Frame, &c.RootCause} {
				*f = RedactLine(*f)
			}
		}
		if a := l.ANR; a != nil {
			a.Activity, a.Reason = RedactLine(a.Activity), RedactLine(a.Reason)
		}
	}
	if n := at.Network; n != nil {
		redactNetwork(n)
	}
}

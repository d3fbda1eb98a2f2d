package network

import "strings"

// Result is what one log held.
type Result struct {
	// Requests are in the order they started, the newest MaxRequests of them.
	Requests []Request `json:"requests"`
	// Dropped counts older requests left out to keep the bound.
	Dropped int `json:"dropped,omitempty"`
}

// Parse reads the HTTP calls in a log (logcat output, one line each) and
// pairs requests with responses. It never fails: lines it does not know are
// skipped, and a call the log holds only half of is reported as far as it
// goes (Partial, or Failed with NoResponse).
func Parse(text string) Result {
	p := newPairer()
	for len(text) > 0 {
		var s string
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			s, text = text[:i], text[i+1:]
		} else {
			s, text = text, ""
		}
		p.add(s)
	}
	return p.finish()
}

// ParseLines is Parse for a log already split into lines.
func ParseLines(lines []string) Result { return newPairer().all(lines) }

// ParseByTag is ParseLines for lines whose pid and tid say nothing of the
// call they belong to: each `adb shell log` command runs as a process of its
// own, so a script logging a call line by line writes every line from a new
// pid. Lines under one tag are read as one writer, in order; each call keeps
// the pid of the line that started it.
func ParseByTag(lines []string) Result {
	p := newPairer()
	p.byTag = true
	return p.all(lines)
}

// ParseWithBodies is ParseLines that also keeps the text of the bodies OkHttp
// logged at BODY level: the lines between a call's empty line and its END
// line, on the call's thread. The lines must come from RedactKeepingBodies,
// which redacts body text by the rules instead of replacing it.
func ParseWithBodies(lines []string) Result {
	p := newPairer()
	p.bodies = true
	return p.all(lines)
}

// all pairs lines and returns what they held.
func (p *pairer) all(lines []string) Result {
	for _, s := range lines {
		p.add(s)
	}
	return p.finish()
}

// pairer holds the calls still waiting for their other half.
type pairer struct {
	out     []*Request
	dropped int
	ok      map[thread]*okThread
	ktor    ktorState
	byTag   bool
	bodies  bool // keep body text (ParseWithBodies)
}

func newPairer() *pairer {
	return &pairer{ok: map[thread]*okThread{}, ktor: ktorState{blocks: map[thread]*ktorBlock{}}}
}

func (p *pairer) add(s string) {
	if !p.bodies && !Relevant(s) {
		return
	}
	l := parseLine(s)
	l.byTag = p.byTag
	msg := strings.TrimSpace(l.msg)
	if p.bodies && p.okBody(l, msg) {
		return
	}
	if msg == "" {
		return
	}
	if !p.okhttp(l, msg) {
		p.ktorLine(l, msg)
	}
}

// start records a new call, keeping the output bounded: past twice the
// limit the oldest half goes (they may still be waiting in a thread's queue;
// an answer for one is then simply not reported).
func (p *pairer) start(r *Request) {
	p.out = append(p.out, r)
	if len(p.out) >= 2*MaxRequests {
		n := len(p.out) - MaxRequests
		p.dropped += n
		p.out = append(p.out[:0:0], p.out[n:]...)
	}
}

func (p *pairer) finish() Result {
	res := Result{Requests: make([]Request, 0, min(len(p.out), MaxRequests)), Dropped: p.dropped}
	from := 0
	if len(p.out) > MaxRequests {
		from = len(p.out) - MaxRequests
		res.Dropped += from
	}
	for _, r := range p.out[from:] {
		if r.Status == 0 && !r.Failed {
			r.Failed, r.Error = true, NoResponse
		}
		res.Requests = append(res.Requests, *r)
	}
	return res
}

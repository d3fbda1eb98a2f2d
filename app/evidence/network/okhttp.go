package network

import (
	"regexp"
	"strconv"
	"strings"
)

// OkHttp's HttpLoggingInterceptor writes, per call, on the thread that runs
// it (okhttp-logging-interceptor/src/main/kotlin/okhttp3/logging/
// HttpLoggingInterceptor.kt, intercept()):
//
//	--> POST https://host/path h2 (12-byte body)     BASIC: size on the start line
//	Content-Type: application/json                   HEADERS: one line a header
//	--> END POST (12-byte body)                      ...and a closing line
//	<-- 200 OK https://host/path (182ms, 2048-byte body)
//	<-- END HTTP (2048-byte body)
//	<-- HTTP FAILED: java.net.SocketTimeoutException: timeout
//
// At BODY level the body follows an empty line before the END lines; the
// redactor has replaced it by then.
var (
	// `--> GET https://… [protocol] [(N-byte body)]`: a method is upper-case letters.
	okStart = regexp.MustCompile(`^--> ([A-Z][A-Z_-]{0,19}) (\S+)(?: [a-z0-9./_-]+)?(?: \((-?\d+)-byte body\))?$`)
	// The tail of a status line: `(182ms)`, `(182ms, 2048-byte body)`,
	// `(182ms, unknown-length body)`.
	okTail = regexp.MustCompile(`^\((\d+)ms(?:, (?:(-?\d+)-byte|unknown-length) body)?\)$`)
	// `(N-byte body)`, `(N-byte, M-gzipped-byte body)`, `(binary N-byte body omitted)`,
	// OkHttp 5's `(12ms, N-byte body)`: the first count is the body's.
	okEndSize = regexp.MustCompile(`\b(\d+)-byte`)
	// A method alone, as okStart reads it.
	okMethod = regexp.MustCompile(`^[A-Z][A-Z_-]{0,19}$`)
	// A header line: `Name: value`.
	okHeader = regexp.MustCompile(`^([A-Za-z0-9-]{1,64}): (.*)$`)
)

// okThread is one thread's OkHttp state: calls awaiting a response (a
// thread runs one call at a time, but network interceptors and redirects
// nest them) and which half's headers are being read.
type okThread struct {
	open     []*Request
	request  *Request // in the request's header lines
	response *Request // in the response's header lines
	inBody   bool     // past the empty line that opens a logged body
}

// okBody keeps a body line for the call its thread is in, reporting whether
// msg was one: the empty line opens a body after a start line's headers, and
// every line up to the END line is body text.
func (p *pairer) okBody(l line, msg string) bool {
	st := p.ok[l.thread()]
	if st == nil || st.request == nil && st.response == nil {
		return false
	}
	if !st.inBody {
		st.inBody = msg == ""
		return st.inBody
	}
	if strings.HasPrefix(msg, "--> END") || strings.HasPrefix(msg, "<-- END HTTP") || strings.HasPrefix(msg, "<-- HTTP FAILED") {
		st.inBody = false
		return false
	}
	var body *string
	if st.response != nil {
		body = &st.response.ResponseBody
	} else {
		body = &st.request.RequestBody
	}
	if len(*body) > MaxBody-8 { // full: cut, and marked with "…"
		return true
	}
	if *body != "" {
		*body += "\n"
	}
	*body = clip(*body+clean(msg, MaxBody), MaxBody)
	return true
}

// okhttp handles a line if it is OkHttp's, reporting whether it was.
func (p *pairer) okhttp(l line, msg string) bool {
	switch {
	case strings.HasPrefix(msg, "--> END "):
		if st := p.ok[l.thread()]; st != nil && st.request != nil {
			if n, ok := endSize(msg); ok {
				st.request.RequestBytes = &n
			}
			st.request = nil
		}
		return true
	case strings.HasPrefix(msg, "--> "):
		m := okStart.FindStringSubmatch(msg)
		if m == nil {
			// A start line cut at logcat's limit: method and as much URL as there is.
			m = cutStart(msg)
			if m == nil {
				return true
			}
		}
		r := &Request{Method: m[1], URL: clean(m[2], MaxURL), Source: SourceOkHttp, Time: l.time, Pid: l.pid, Tid: l.tid}
		if m[3] != "" {
			if n := count(m[3]); n != nil {
				r.RequestBytes = n
			}
		}
		st := p.thread(l.thread())
		st.open = append(st.open, r)
		if len(st.open) > maxOpenPerThread {
			st.open = st.open[1:]
		}
		st.request, st.response, st.inBody = r, nil, false
		p.start(r)
		return true
	case strings.HasPrefix(msg, "<-- END HTTP"):
		if st := p.ok[l.thread()]; st != nil && st.response != nil {
			if n, ok := endSize(msg); ok {
				st.response.ResponseBytes = &n
			}
			st.response = nil
		}
		return true
	case strings.HasPrefix(msg, "<-- HTTP FAILED"):
		r := p.answer(l, "")
		r.Failed = true
		r.Error = clean(strings.TrimPrefix(strings.TrimPrefix(msg, "<-- HTTP FAILED"), ":"), MaxError)
		if st := p.ok[l.thread()]; st != nil {
			st.request, st.response = nil, nil
		}
		return true
	case strings.HasPrefix(msg, "<-- "):
		sl, ok := parseStatus(msg)
		if !ok {
			return true
		}
		r := p.answer(l, clean(sl.url, MaxURL))
		r.Status, r.DurationMs = sl.status, sl.duration
		if sl.bytes != nil {
			r.ResponseBytes = sl.bytes
		}
		st := p.thread(l.thread())
		st.response, st.request, st.inBody = r, nil, false
		return true
	}
	st := p.ok[l.thread()]
	if st == nil || st.request == nil && st.response == nil {
		return false
	}
	h := okHeader.FindStringSubmatch(msg)
	if h == nil {
		return false
	}
	readHeader(st.response, st.request, h[1], strings.TrimSpace(h[2]))
	return true
}

// cutStart reads a start line that has no room left for its tail.
func cutStart(msg string) []string {
	f := strings.SplitN(strings.TrimPrefix(msg, "--> "), " ", 3)
	if len(f) < 2 || !strings.Contains(f[1], "://") || !okMethod.MatchString(f[0]) {
		return nil
	}
	return []string{msg, f[0], f[1], ""}
}

// thread returns a thread's state, creating it; past maxThreads every
// thread's state is dropped (their waiting calls stay in the output and end
// as NoResponse), which bounds memory for logs from runaway thread pools.
func (p *pairer) thread(t thread) *okThread {
	st := p.ok[t]
	if st == nil {
		if len(p.ok) >= maxThreads {
			p.ok = map[thread]*okThread{}
		}
		st = &okThread{}
		p.ok[t] = st
	}
	return st
}

// answer finds the call a response or failure line belongs to: on the same
// thread, the newest waiting call with that URL, else the newest waiting call
// (a redirect changes the URL); on a line without a thread, the newest
// waiting call with that URL anywhere. With none, the log lost the request
// and a partial call stands for it.
func (p *pairer) answer(l line, url string) *Request {
	if st := p.ok[l.thread()]; st != nil && len(st.open) > 0 {
		i := len(st.open) - 1
		for j := i; j >= 0 && url != ""; j-- {
			if st.open[j].URL == url {
				i = j
				break
			}
		}
		r := st.open[i]
		st.open = append(st.open[:i], st.open[i+1:]...)
		return r
	}
	if l.tid == 0 && url != "" {
		for _, st := range p.ok {
			for i := len(st.open) - 1; i >= 0; i-- {
				if r := st.open[i]; r.URL == url {
					st.open = append(st.open[:i], st.open[i+1:]...)
					return r
				}
			}
		}
	}
	r := &Request{URL: url, Source: SourceOkHttp, Time: l.time, Partial: true, Pid: l.pid, Tid: l.tid}
	p.start(r)
	return r
}

// endSize reads the byte count of an END line, ok false when it has none.
func endSize(msg string) (int64, bool) {
	m := okEndSize.FindStringSubmatch(msg)
	if m == nil {
		return 0, false
	}
	n, err := strconv.ParseInt(m[1], 10, 64)
	return n, err == nil
}

// statusLine is what `<-- 200 OK https://… (182ms, 2048-byte body)` says.
type statusLine struct {
	status   int
	url      string
	duration *int64
	bytes    *int64
}

// parseStatus reads a status line. The message between status and URL may be
// empty (HTTP/2) or several words, so the line is read from both ends; a line
// cut at logcat's limit has no tail and keeps its status and as much URL as
// there is.
func parseStatus(msg string) (statusLine, bool) {
	rest := strings.TrimPrefix(msg, "<-- ")
	if len(rest) < 3 || len(rest) > 3 && rest[3] != ' ' {
		return statusLine{}, false
	}
	code, err := strconv.Atoi(rest[:3])
	if err != nil || code < 100 {
		return statusLine{}, false
	}
	sl := statusLine{status: code}
	rest = strings.TrimSpace(rest[3:])
	if i := strings.LastIndex(rest, " ("); i >= 0 {
		if m := okTail.FindStringSubmatch(rest[i+1:]); m != nil {
			rest = rest[:i]
			if d, err := strconv.ParseInt(m[1], 10, 64); err == nil {
				sl.duration = &d
			}
			if n := count(m[2]); n != nil {
				sl.bytes = n
			}
		}
	}
	if i := strings.LastIndexByte(rest, ' '); i >= 0 {
		rest = rest[i+1:]
	}
	if strings.Contains(rest, "://") {
		sl.url = rest
	}
	return sl, true
}

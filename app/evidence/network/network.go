// Package network reads the HTTP calls a debug app logged to logcat: OkHttp's
// HttpLoggingInterceptor (BASIC, HEADERS and BODY levels) and Ktor client's
// Logging plugin, under whatever tag the app chose. It pairs each request with
// its response (per thread for OkHttp, by URL for Ktor, whose coroutines hop
// threads) and reports method, URL, status, duration, sizes and failure.
//
// It reads text that app/evidence has already redacted and makes no HTTP call
// of its own. Input is bounded, not trusted: lines of any length, NUL bytes,
// half a call cut off by a rotated log or logcat's 4,068-byte line limit, and
// millions of lines all cost linear time and bounded memory.
package network

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Source names the library whose log lines described a request.
type Source string

// Sources.
const (
	SourceOkHttp Source = "okhttp"
	SourceKtor   Source = "ktor"
)

// Request is one HTTP call as the app's log told it.
type Request struct {
	Method string `json:"method"` // "" when only the response half was in the log
	URL    string `json:"url"`    // "" when a failure had no request before it
	Status int    `json:"status,omitempty"`
	// DurationMs is OkHttp's own measure, or for Ktor the time between the
	// request's and the response's log lines.
	DurationMs *int64 `json:"durationMs,omitempty"`
	// Failed is a call that got no response: it threw (Error says what), or
	// the log ended before an answer.
	Failed        bool   `json:"failed,omitempty"`
	Error         string `json:"error,omitempty"`
	RequestBytes  *int64 `json:"requestBytes,omitempty"`
	ResponseBytes *int64 `json:"responseBytes,omitempty"`
	ContentType   string `json:"contentType,omitempty"` // the response's
	Source        Source `json:"source"`
	Time          string `json:"time,omitempty"` // logcat time of its first line
	// Partial is a call whose request line the log no longer held (it
	// rotated out or was cut), so method and perhaps URL are unknown.
	Partial bool `json:"partial,omitempty"`
	Pid     int  `json:"pid,omitempty"`
	Tid     int  `json:"tid,omitempty"`
	// OtherProcess is a call logged under OkHttp's own tag by a process that
	// is not the app's (a script's `log` command, a test harness): it is
	// reported, marked, with the pid that wrote it.
	OtherProcess bool `json:"otherProcess,omitempty"`
	// RequestBody and ResponseBody are the bodies' text as the app logged
	// them (OkHttp at BODY level), kept only when the user asked for bodies
	// (ParseWithBodies), redacted before parsing, at most MaxBody bytes each.
	RequestBody  string `json:"requestBody,omitempty"`
	ResponseBody string `json:"responseBody,omitempty"`
}

// NoResponse is a request's Error when the log ended before its response.
const NoResponse = "no response in the log"

// SlowMs is the duration above which a request counts as slow.
const SlowMs = 1000

// Bad reports whether a request failed: it got no response or an HTTP
// status of 400 or more.
func (r Request) Bad() bool { return r.Failed || r.Status >= 400 }

// Slow reports whether a request took more than SlowMs.
func (r Request) Slow() bool { return r.DurationMs != nil && *r.DurationMs > SlowMs }

// Limits on what one parse keeps, so any input costs bounded memory.
const (
	// MaxRequests is how many requests a parse returns: the newest.
	MaxRequests = 500
	// MaxURL and MaxError bound a URL and an error text, in bytes.
	MaxURL   = 2048
	MaxError = 200
	// MaxBody bounds a kept body, in bytes; a longer one ends with "…".
	MaxBody = 4096
	// maxOpenPerThread bounds the calls waiting for a response on one
	// thread; maxThreads bounds the threads tracked at once.
	maxOpenPerThread = 32
	maxThreads       = 4096
	maxKtorOpen      = 512
)

// Label is the request as people read it in one short phrase:
// `POST https://api.example.com/favourites → 500 (1,204 ms)`.
func (r Request) Label() string {
	method := r.Method
	if method == "" {
		method = "?"
	}
	url := r.URL
	if url == "" {
		url = "(unknown URL)"
	}
	var out string
	switch {
	case r.Failed && r.Error != "":
		out = method + " " + url + " → failed: " + r.Error
	case r.Failed:
		out = method + " " + url + " → failed"
	case r.Status > 0:
		out = fmt.Sprintf("%s %s → %d", method, url, r.Status)
	default:
		out = method + " " + url
	}
	if r.DurationMs != nil {
		out += fmt.Sprintf(" (%d ms)", *r.DurationMs)
	}
	return out
}

// clip bounds s to n bytes on a rune boundary, marking a cut with "…".
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// clean makes a value from the log safe to carry: no control bytes, bounded.
func clean(s string, n int) string {
	s = clip(s, n+8) // cut before the scan: a megabyte field costs nothing more
	if strings.IndexFunc(s, func(r rune) bool { return r < ' ' || r == 0x7f || r == utf8.RuneError }) >= 0 {
		s = strings.Map(func(r rune) rune {
			if r < ' ' || r == 0x7f || r == utf8.RuneError {
				return ' '
			}
			return r
		}, s)
	}
	return clip(strings.TrimSpace(s), n)
}

// readHeader keeps what a call's line needs of a header either library logged:
// the response's content type and the length of whichever side is open.
func readHeader(response, request *Request, name, value string) {
	switch name = strings.ToLower(name); {
	case response != nil && name == "content-type":
		response.ContentType = clean(value, 100)
	case response != nil && name == "content-length":
		if n := count(value); n != nil {
			response.ResponseBytes = n
		}
	case request != nil && name == "content-length":
		if n := count(value); n != nil {
			request.RequestBytes = n
		}
	}
}

// count reads a byte count from the log: nil unless it is a number >= 0.
func count(s string) *int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return nil
	}
	return &n
}

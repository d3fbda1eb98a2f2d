package evidence

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"fixthis/app/evidence/network"
)

// NetworkLookback is how far before the freeze the network window starts: a
// call that began a minute before the user pointed may be the one whose
// answer the screen is still waiting for.
const NetworkLookback = 60 * time.Second

// maxAttachedBodies bounds the body text an attachment carries, in bytes:
// the first calls' bodies (failed and slow ones come first) up to it; every
// kept body is in the artifact.
const maxAttachedBodies = 64 << 10

// maxNetworkAttached bounds the requests an attachment carries (it is stored
// in the database with the attempt); the artifact holds every request read.
const maxNetworkAttached = 100

// NetworkSummary is the HTTP calls the app logged around the freeze, read
// from OkHttp's and Ktor's logging lines in its log.
type NetworkSummary struct {
	Total  int `json:"total"`
	Failed int `json:"failed"` // no response, or a status of 400 or more
	Slow   int `json:"slow"`   // answered after more than a second
	// Requests are the calls, failed and slow ones first, then the newest, at
	// most maxNetworkAttached.
	Requests []network.Request `json:"requests"`
	Dropped  int               `json:"dropped,omitempty"` // calls left out of Requests
	// Notes say what the log could not tell: calls whose request had rotated
	// out of it, calls still unanswered when it was read.
	Notes []string `json:"notes,omitempty"`
}

// networkSince is where the network window starts: NetworkLookback before the
// freeze. Without a freeze time, Since is taken as DefaultLookback before it.
func networkSince(req Request, now time.Time) time.Time {
	switch {
	case !req.Freeze.IsZero():
		return req.Freeze.Add(-NetworkLookback)
	case !req.Since.IsZero():
		return req.Since.Add(DefaultLookback - NetworkLookback)
	}
	return now.Add(-NetworkLookback)
}

func runNetwork(ctx context.Context, sh Shell, req Request) (string, Attachment) {
	lr, r := req.sharedLog(ctx, sh)
	if r != ReasonNone {
		return "", failed(KindNetwork, r)
	}
	var res network.Result
	if req.Bodies {
		res = network.ParseWithBodies(lr.withBodies)
	} else {
		res = network.ParseLines(lr.app)
	}
	other := network.ParseByTag(lr.other).Requests
	for i := range other {
		other[i].OtherProcess = true
	}
	res = merged(res, other, req.WebView)
	sum := summarizeNetwork(res)
	if req.Bodies {
		keepBodiesWithin(&sum, maxAttachedBodies)
	}
	if note := oneLine(req.WebViewNote); note != "" {
		sum.Notes = append(sum.Notes, "WebView: "+note)
	}
	raw := ""
	if len(res.Requests) > 0 {
		b, err := json.MarshalIndent(res, "", "  ")
		if err == nil {
			raw = string(b) + "\n"
		}
	}
	return raw, Attachment{Status: StatusComplete, Summary: sum.Line(), Network: &sum}
}

// merged adds the calls other processes logged under OkHttp's tags and the
// WebView's to the app's, in the order they started, keeping the newest
// network.MaxRequests of all.
func merged(res network.Result, other, web []network.Request) network.Result {
	if len(other) > 0 {
		res.Requests = append(res.Requests, other...)
		// Logcat's times (MM-DD hh:mm:ss.mmm) sort as text; a stable sort
		// keeps a thread's calls in their order.
		slices.SortStableFunc(res.Requests, func(a, b network.Request) int { return strings.Compare(a.Time, b.Time) })
	}
	res.Requests = append(res.Requests, web...)
	if over := len(res.Requests) - network.MaxRequests; over > 0 {
		res.Requests, res.Dropped = res.Requests[over:], res.Dropped+over
	}
	return res
}

// summarizeNetwork counts the calls and picks the ones an attachment carries:
// failed and slow first (in time order), then the newest of the rest.
func summarizeNetwork(res network.Result) NetworkSummary {
	s := NetworkSummary{Total: len(res.Requests) + res.Dropped, Requests: []network.Request{}}
	var notable, rest []network.Request
	for _, r := range res.Requests {
		if r.Bad() {
			s.Failed++
		}
		if r.Slow() {
			s.Slow++
		}
		if r.Bad() || r.Slow() {
			notable = append(notable, r)
		} else {
			rest = append(rest, r)
		}
	}
	s.Requests = append(s.Requests, notable[:min(len(notable), maxNetworkAttached)]...)
	if room := maxNetworkAttached - len(s.Requests); room > 0 && len(rest) > 0 {
		s.Requests = append(s.Requests, rest[max(0, len(rest)-room):]...)
	}
	s.Dropped = s.Total - len(s.Requests)
	partial, open := 0, 0
	for _, r := range res.Requests {
		if r.Partial {
			partial++
		}
		if r.Error == network.NoResponse {
			open++
		}
	}
	if partial > 0 {
		s.Notes = append(s.Notes, fmt.Sprintf("%d %s only the answer: the request had rotated out of the log", partial, plural(partial, "call with", "calls with")))
	}
	if open > 0 {
		s.Notes = append(s.Notes, fmt.Sprintf("%d %s no answer: still waiting when the log was read, or the answer was not logged", open, plural(open, "call with", "calls with")))
	}
	if res.Dropped > 0 {
		s.Notes = append(s.Notes, fmt.Sprintf("%d older %s left out: only the newest %d are read", res.Dropped, plural(res.Dropped, "call", "calls"), network.MaxRequests))
	}
	return s
}

// Line renders the summary as one bounded line: counts, then the failed
// calls by method, path and outcome.
func (s NetworkSummary) Line() string {
	if s.Total == 0 {
		return "no HTTP calls in the app's log (OkHttp or Ktor logging)"
	}
	out := fmt.Sprintf("%d HTTP %s, %d failed, %d slow", s.Total, plural(s.Total, "call", "calls"), s.Failed, s.Slow)
	var bad []string
	for _, r := range s.Requests {
		if r.Bad() {
			bad = append(bad, ShortCall(r))
		}
	}
	if len(bad) > 0 {
		out += ": " + strings.Join(bad[:min(len(bad), 3)], "; ")
	}
	return oneLine(out)
}

// ShortCall names a call in a few words: `POST /v1/favourites 500`,
// `GET /v1/profile timeout`, `GET /covers/1.jpg 1516 ms`.
func ShortCall(r network.Request) string {
	method := r.Method
	if method == "" {
		method = "?"
	}
	path := r.URL
	if u, err := url.Parse(r.URL); err == nil && u.Host != "" {
		path = u.Host + u.EscapedPath()
	}
	if path == "" {
		path = "(unknown URL)"
	}
	var outcome string
	switch {
	case r.Failed && r.Error == network.NoResponse:
		outcome = "no response"
	case r.Failed:
		outcome = failureWord(r.Error)
	case r.Status > 0:
		outcome = fmt.Sprint(r.Status)
	}
	if r.DurationMs != nil && *r.DurationMs > network.SlowMs {
		outcome += fmt.Sprintf(" %d ms", *r.DurationMs)
	}
	return strings.TrimSpace(method + " " + path + " " + outcome)
}

// failureWord is the exception's simple name, `SocketTimeoutException` for
// `java.net.SocketTimeoutException: timeout`.
func failureWord(err string) string {
	typ, _, _ := strings.Cut(err, ":")
	typ = strings.TrimSpace(typ)
	if i := strings.LastIndexByte(typ, '.'); i >= 0 {
		typ = typ[i+1:]
	}
	if typ == "" || strings.ContainsAny(typ, " []") {
		return "failed"
	}
	return typ
}

// keepBodiesWithin drops the bodies of the attachment's later calls past
// limit bytes of body text, and says so; the artifact keeps them.
func keepBodiesWithin(s *NetworkSummary, limit int) {
	used, dropped := 0, 0
	for i := range s.Requests {
		r := &s.Requests[i]
		n := len(r.RequestBody) + len(r.ResponseBody)
		if n == 0 {
			continue
		}
		if used+n > limit {
			r.RequestBody, r.ResponseBody = "", ""
			dropped++
			continue
		}
		used += n
	}
	if used == 0 && dropped == 0 {
		// Asked for, but nothing to keep: say why rather than claim bodies were kept.
		if len(s.Requests) > 0 {
			s.Notes = append(s.Notes, "bodies were asked for, but the app logged none: OkHttp logs them at Level.BODY, Ktor at LogLevel.BODY")
		}
		return
	}
	s.Notes = append(s.Notes, fmt.Sprintf("bodies kept as asked: at most %d bytes each, redacted like every line", network.MaxBody))
	if dropped > 0 {
		s.Notes = append(s.Notes, fmt.Sprintf("the bodies of %d more %s are only in network.json", dropped, plural(dropped, "call", "calls")))
	}
}

// redactNetwork runs RedactLine over every text a network summary carries.
func redactNetwork(s *NetworkSummary) {
	for i := range s.Requests {
		r := &s.Requests[i]
		r.URL, r.Error, r.ContentType, r.Method = RedactLine(r.URL), RedactLine(r.Error), RedactLine(r.ContentType), RedactLine(r.Method)
		r.RequestBody, r.ResponseBody = RedactBody(r.RequestBody), RedactBody(r.ResponseBody)
	}
	for i := range s.Notes {
		s.Notes[i] = RedactLine(s.Notes[i])
	}
}

// RedactBody runs RedactLine over each line of a kept body.
func RedactBody(b string) string {
	if b == "" {
		return b
	}
	lines := strings.Split(b, "\n")
	for i, l := range lines {
		lines[i] = RedactLine(l)
	}
	return strings.Join(lines, "\n")
}

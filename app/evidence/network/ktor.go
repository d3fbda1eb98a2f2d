package network

import (
	"strconv"
	"strings"
)

// Ktor client's Logging plugin writes each half of a call as one multi-line
// message, which logcat prints as consecutive lines with the same header
// (ktor-client-logging, Logging.kt logRequest / logRequestException and
// LoggingUtils.kt logResponseHeader):
//
//	REQUEST: https://host/path          RESPONSE: 200 OK
//	METHOD: HttpMethod(value=GET)       METHOD: HttpMethod(value=GET)
//	COMMON HEADERS                      FROM: https://host/path
//	-> Accept: */*                      COMMON HEADERS
//	CONTENT HEADERS                     -> Content-Type: text/plain
//	-> Content-Length: 0                BODY Content-Type: text/plain
//	BODY START / … / BODY END           BODY START / … / BODY END
//
//	REQUEST https://host/path failed with exception: java.net.UnknownHostException: …
//	RESPONSE https://host/path failed with exception: …
//
// The two halves come from whichever threads the coroutine ran on, so a
// response pairs with the oldest waiting request for the same URL and method.

// ktorState is the Ktor calls waiting for a response and, per thread, the
// message being read.
type ktorState struct {
	open   []*Request
	blocks map[thread]*ktorBlock
}

// ktorBlock is the half of a call whose lines a thread is printing.
type ktorBlock struct {
	request  *Request // the request half's call
	response bool     // a response half, until FROM: names its call
	status   int
	method   string
	time     string
	call     *Request // the response half's call, once FROM: found it
}

func (p *pairer) ktorLine(l line, msg string) {
	k := &p.ktor
	t := l.thread()
	switch {
	case strings.HasPrefix(msg, "REQUEST: ") && strings.Contains(msg, "://"):
		r := &Request{URL: clean(strings.TrimPrefix(msg, "REQUEST: "), MaxURL), Source: SourceKtor, Time: l.time, Pid: l.pid, Tid: l.tid}
		k.open = append(k.open, r)
		if len(k.open) > maxKtorOpen {
			k.open = k.open[1:]
		}
		k.block(t, &ktorBlock{request: r})
		p.start(r)
	case strings.HasPrefix(msg, "RESPONSE: "):
		code, _, _ := strings.Cut(strings.TrimPrefix(msg, "RESPONSE: "), " ")
		n, err := strconv.Atoi(code)
		if err != nil || n < 100 || n > 999 {
			return
		}
		k.block(t, &ktorBlock{response: true, status: n, time: l.time})
	case strings.HasPrefix(msg, "METHOD: "):
		b := k.blocks[t]
		if b == nil {
			return
		}
		m := ktorMethod(strings.TrimPrefix(msg, "METHOD: "))
		if b.request != nil {
			b.request.Method = m
		} else {
			b.method = m
		}
	case strings.HasPrefix(msg, "FROM: "):
		b := k.blocks[t]
		if b == nil || !b.response || b.call != nil || !strings.Contains(msg, "://") {
			return
		}
		url := clean(strings.TrimPrefix(msg, "FROM: "), MaxURL)
		r := k.take(url, b.method)
		if r == nil {
			r = &Request{Method: b.method, URL: url, Source: SourceKtor, Time: b.time, Partial: true, Pid: l.pid, Tid: l.tid}
			p.start(r)
		} else {
			r.DurationMs = between(r.Time, b.time)
		}
		r.Status = b.status
		b.call = r
	case strings.HasPrefix(msg, "REQUEST ") || strings.HasPrefix(msg, "RESPONSE "):
		// `REQUEST <url> failed with exception: <cause>`
		head, cause, ok := strings.Cut(msg, " failed with exception: ")
		if !ok {
			return
		}
		_, url, _ := strings.Cut(head, " ")
		url = clean(url, MaxURL)
		r := k.take(url, "")
		if r == nil && strings.HasPrefix(msg, "RESPONSE ") {
			r = p.lastKtor(url)
		}
		if r == nil {
			r = &Request{URL: url, Source: SourceKtor, Time: l.time, Partial: true, Pid: l.pid, Tid: l.tid}
			p.start(r)
		}
		r.Failed, r.Error = true, clean(cause, MaxError)
	case strings.HasPrefix(msg, "-> ") || strings.HasPrefix(msg, "BODY Content-Type: "):
		b := k.blocks[t]
		if b == nil {
			return
		}
		name, value, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(msg, "-> "), "BODY "), ": ")
		if value = strings.TrimSpace(value); value == "null" {
			return // a body without a content type prints `BODY Content-Type: null`
		}
		readHeader(b.call, b.request, name, value)
	}
}

// block starts the half a thread prints, bounding the threads tracked.
func (k *ktorState) block(t thread, b *ktorBlock) {
	if _, ok := k.blocks[t]; !ok && len(k.blocks) >= maxThreads {
		k.blocks = map[thread]*ktorBlock{}
	}
	k.blocks[t] = b
}

// take removes and returns the oldest waiting request for url (and method,
// when both are known).
func (k *ktorState) take(url, method string) *Request {
	for i, r := range k.open {
		if r.URL == url && (method == "" || r.Method == "" || r.Method == method) {
			k.open = append(k.open[:i], k.open[i+1:]...)
			return r
		}
	}
	return nil
}

// lastKtor is the newest Ktor call for url that already has its response:
// a failure while reading the response belongs to it.
func (p *pairer) lastKtor(url string) *Request {
	for i := len(p.out) - 1; i >= 0; i-- {
		if r := p.out[i]; r.Source == SourceKtor && r.URL == url {
			return r
		}
	}
	return nil
}

// ktorMethod reads `HttpMethod(value=GET)` (how Ktor prints its method
// class) or a bare `GET`.
func ktorMethod(s string) string {
	s = strings.TrimSpace(s)
	if v, ok := strings.CutPrefix(s, "HttpMethod(value="); ok {
		s = strings.TrimSuffix(v, ")")
	}
	return clean(s, 20)
}

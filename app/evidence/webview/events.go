package webview

import (
	"encoding/json"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"fixthis/app/evidence/network"
)

// message is one DevTools message: an answer (ID) or an event (Method).
type message struct {
	ID     int             `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// The Network domain's events FixThis reads (devtools-protocol's
// Network.requestWillBeSent, responseReceived, loadingFinished, loadingFailed):
// times are seconds on the page's monotonic clock, wallTime seconds since the
// epoch.
type event struct {
	RequestID string  `json:"requestId"`
	Timestamp float64 `json:"timestamp"`
	WallTime  float64 `json:"wallTime"`
	Request   *struct {
		URL    string `json:"url"`
		Method string `json:"method"`
	} `json:"request"`
	Response *struct {
		Status   int    `json:"status"`
		MimeType string `json:"mimeType"`
	} `json:"response"`
	EncodedDataLength float64 `json:"encodedDataLength"`
	ErrorText         string  `json:"errorText"`
	Canceled          bool    `json:"canceled"`
}

// handle applies one message of a page to the calls.
func (w *Watcher) handle(page string, m message) {
	if !strings.HasPrefix(m.Method, "Network.") {
		return
	}
	var e event
	if err := json.Unmarshal(m.Params, &e); err != nil || e.RequestID == "" || len(e.RequestID) > 64 {
		return
	}
	key := page + "/" + e.RequestID
	w.mu.Lock()
	defer w.mu.Unlock()
	c := w.calls[key]
	switch m.Method {
	case "Network.requestWillBeSent":
		if e.Request == nil || strings.HasPrefix(e.Request.URL, "data:") {
			return
		}
		if c != nil {
			return // a redirect: the call keeps its first URL and start
		}
		if len(w.order) == MaxRequests {
			return
		}
		c = &call{start: e.Timestamp, req: network.Request{Method: bounded(e.Request.Method, 20), URL: bounded(e.Request.URL, maxURL), Source: SourceWebView, Time: wallTime(e.WallTime)}}
		w.calls[key] = c
		w.order = append(w.order, c)
	case "Network.responseReceived":
		if c == nil || e.Response == nil {
			return
		}
		c.req.Status = max(0, min(e.Response.Status, 999))
		c.req.ContentType = bounded(e.Response.MimeType, 100)
	case "Network.loadingFinished":
		if c == nil {
			return
		}
		c.req.DurationMs = took(c.start, e.Timestamp)
		if n := e.EncodedDataLength; n >= 0 && n < math.MaxInt32 {
			b := int64(n)
			c.req.ResponseBytes = &b
		}
	case "Network.loadingFailed":
		if c == nil {
			return
		}
		c.req.DurationMs = took(c.start, e.Timestamp)
		c.req.Failed, c.req.Error = true, bounded(e.ErrorText, 200)
		if e.Canceled {
			c.req.Error = "canceled"
		}
	}
}

// took is the time between two DevTools timestamps in ms, nil if nonsense.
func took(start, end float64) *int64 {
	d := (end - start) * 1000
	if math.IsNaN(d) || d < 0 || d > 24*3600*1000 {
		return nil
	}
	ms := int64(math.Round(d))
	return &ms
}

// wallTime formats an epoch time as logcat does, "" when there is none.
func wallTime(sec float64) string {
	if sec <= 0 || math.IsNaN(sec) || sec > 1e11 {
		return ""
	}
	return time.UnixMilli(int64(sec * 1000)).Format("01-02 15:04:05.000")
}

// bounded keeps a value from the page printable and short.
func bounded(s string, n int) string {
	if len(s) > n {
		s = s[:n]
		for len(s) > 0 && !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
	}
	return strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f || r == utf8.RuneError {
			return ' '
		}
		return r
	}, s)
}

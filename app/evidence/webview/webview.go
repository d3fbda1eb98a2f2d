// Package webview watches a WebView's HTTP traffic over the Chrome DevTools
// Protocol: the socket a debuggable WebView serves (`webview_devtools_remote_<pid>`
// in /proc/net/unix, as chrome://inspect finds it), its HTTP `/json/list` of
// pages, and each page's `Network` domain events, read into the same
// network.Request the log parser produces (source "webview").
//
// The Network domain reports what happens after it is enabled, so a Watcher
// runs from before the moment of interest (the freeze) until the evidence is
// collected. Everything it reads is outside input: bounded, and a socket that
// never answers costs at most the caller's deadline.
package webview

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"fixthis/app/errcode"
	"fixthis/app/evidence/network"
)

// SourceWebView marks a request a WebView made.
const SourceWebView network.Source = "webview"

// Dialer opens one connection to the DevTools socket: an adb stream to
// localabstract:webview_devtools_remote_<pid>, or TCP in tests.
type Dialer func(ctx context.Context) (net.Conn, error)

// Limits on what a Watcher keeps.
const (
	MaxRequests = 500
	maxPages    = 8
	maxMessage  = 1 << 20 // one DevTools message
	maxURL      = 2048
)

// target is one entry of /json/list.
type target struct {
	Type  string `json:"type"`
	URL   string `json:"url"`
	WSURL string `json:"webSocketDebuggerUrl"`
}

// Watcher records the requests of every page the socket listed when it
// started.
type Watcher struct {
	mu       sync.Mutex
	calls    map[string]*call // by page and DevTools requestId
	order    []*call
	conns    []*websocket.Conn
	done     chan struct{}
	wg       sync.WaitGroup
	closeErr error
}

// call is a request in flight or done, with the DevTools clock's times.
type call struct {
	req        network.Request
	start, end float64 // seconds on the page's monotonic clock
}

// Watch lists the socket's pages and enables the Network domain on each. It
// returns once every page has answered Network.enable, or an error when the
// socket lists none or does not answer before ctx ends.
func Watch(ctx context.Context, dial Dialer) (*Watcher, error) {
	targets, err := list(ctx, dial)
	if err != nil {
		return nil, err
	}
	w := &Watcher{calls: map[string]*call{}, done: make(chan struct{})}
	pages := 0
	for i, t := range targets {
		if t.Type != "page" || t.WSURL == "" || pages == maxPages {
			continue
		}
		if err := w.watchPage(ctx, dial, t.WSURL, fmt.Sprint(i)); err != nil {
			w.Close()
			return nil, err
		}
		pages++
	}
	if pages == 0 {
		w.Close()
		return nil, errors.New("devtools: the socket lists no page")
	}
	return w, nil
}

// list is GET /json/list over the socket. DevTools answers only a Host that
// is localhost or an address, whatever the socket is.
func list(ctx context.Context, dial Dialer) ([]target, error) {
	c := &http.Client{Transport: &http.Transport{
		DialContext:       func(ctx context.Context, _, _ string) (net.Conn, error) { return dial(ctx) },
		DisableKeepAlives: true,
	}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://localhost/json/list", nil)
	if err != nil {
		return nil, err
	}
	res, err := c.Do(req)
	if err != nil {
		return nil, fmt.Errorf("devtools: list pages: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("devtools: list pages: HTTP %d", res.StatusCode)
	}
	var ts []target
	if err := json.NewDecoder(io.LimitReader(res.Body, maxMessage)).Decode(&ts); err != nil {
		return nil, fmt.Errorf("devtools: list pages: %w", err)
	}
	return ts, nil
}

// watchPage opens a page's DevTools websocket over the socket, enables the
// Network domain and reads its events until Close.
func (w *Watcher) watchPage(ctx context.Context, dial Dialer, wsURL, page string) error {
	u, err := url.Parse(wsURL)
	if err != nil || !strings.HasPrefix(u.Path, "/devtools/") {
		return fmt.Errorf("devtools: page address %s is not a DevTools one", errcode.Quote(wsURL))
	}
	d := websocket.Dialer{NetDialContext: func(ctx context.Context, _, _ string) (net.Conn, error) { return dial(ctx) }}
	conn, _, err := d.DialContext(ctx, "ws://localhost"+u.Path, nil)
	if err != nil {
		return fmt.Errorf("devtools: open page: %w", err)
	}
	conn.SetReadLimit(maxMessage)
	w.mu.Lock()
	w.conns = append(w.conns, conn)
	w.mu.Unlock()
	if deadline, ok := ctx.Deadline(); ok {
		_ = conn.SetWriteDeadline(deadline)
		_ = conn.SetReadDeadline(deadline)
	}
	if err := conn.WriteJSON(map[string]any{"id": 1, "method": "Network.enable"}); err != nil {
		return fmt.Errorf("devtools: enable the network domain: %w", err)
	}
	// Events may come before the answer to enable; both go to handle.
	for {
		var m message
		if err := conn.ReadJSON(&m); err != nil {
			return fmt.Errorf("devtools: enable the network domain: %w", err)
		}
		if m.ID == 1 {
			if m.Error != nil {
				return fmt.Errorf("devtools: Network.enable: %s", errcode.Quote(m.Error.Message))
			}
			break
		}
		w.handle(page, m)
	}
	_ = conn.SetReadDeadline(time.Time{})
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		for {
			var m message
			if err := conn.ReadJSON(&m); err != nil {
				return // closed, or the page went away
			}
			w.handle(page, m)
		}
	}()
	return nil
}

// Close stops watching; the requests seen stay readable.
func (w *Watcher) Close() error {
	w.mu.Lock()
	conns := w.conns
	w.conns = nil
	w.mu.Unlock()
	for _, c := range conns {
		_ = c.Close()
	}
	w.wg.Wait()
	return nil
}

// Requests returns the requests seen so far, in the order they started;
// those without an answer yet are Failed with network.NoResponse.
func (w *Watcher) Requests() []network.Request {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]network.Request, 0, len(w.order))
	for _, c := range w.order {
		r := c.req
		if r.Status == 0 && !r.Failed {
			r.Failed, r.Error = true, network.NoResponse
		}
		out = append(out, r)
	}
	return out
}

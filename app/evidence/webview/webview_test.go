package webview

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"fixthis/internal/chromiumtest"
)

// tcpDialer dials addr: the DevTools port of a Chromium in the tests.
func tcpDialer(addr string) Dialer {
	return func(ctx context.Context) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "tcp", addr)
	}
}

func TestWatchARealChromium(t *testing.T) {
	srv := chromiumtest.PageServer(t)
	dial := tcpDialer(chromiumtest.Start(t, srv.URL+"/"))

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var w *Watcher
	var err error
	for w == nil && ctx.Err() == nil { // the page may not be listed yet
		if w, err = Watch(ctx, dial); err != nil {
			time.Sleep(200 * time.Millisecond)
		}
	}
	if w == nil {
		t.Fatalf("watch: %v", err)
	}
	defer w.Close()

	seen := map[string]bool{}
	for ctx.Err() == nil && len(seen) < 3 {
		time.Sleep(100 * time.Millisecond)
		for _, r := range w.Requests() {
			switch {
			case r.URL == srv.URL+"/api/ok" && r.Status == 200 && r.DurationMs != nil && r.ContentType == "application/json" && r.Method == "GET":
				seen["ok"] = true
			case r.URL == srv.URL+"/api/missing" && r.Status == 404 && r.DurationMs != nil:
				seen["missing"] = true
			case r.URL == chromiumtest.RefusedURL && r.Failed && strings.HasPrefix(r.Error, "net::ERR_") && r.Status == 0:
				seen["refused"] = true
			}
			if r.Source != SourceWebView || r.Time == "" {
				t.Fatalf("request %+v", r)
			}
		}
	}
	if len(seen) < 3 {
		t.Fatalf("saw %v of ok, missing, refused in %+v", seen, w.Requests())
	}
}

// A socket that accepts and never answers costs the caller's deadline, no more.
func TestWatchASocketThatNeverAnswers(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	dial := tcpDialer(ln.Addr().String())
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	if _, err := Watch(ctx, dial); err == nil || time.Since(t0) > 2*time.Second {
		t.Errorf("err %v after %v", err, time.Since(t0))
	}
}

func TestWatchRefusesWhatIsNoDevTools(t *testing.T) {
	for name, body := range map[string]string{
		"no page":        `[{"type":"service_worker","webSocketDebuggerUrl":"ws://localhost/devtools/page/1"}]`,
		"not json":       "<html>",
		"not a devtools": `[{"type":"page","webSocketDebuggerUrl":"ws://localhost/elsewhere"}]`,
	} {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, body) }))
			defer srv.Close()
			dial := tcpDialer(srv.Listener.Addr().String())
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			if w, err := Watch(ctx, dial); err == nil {
				w.Close()
				t.Error("watched")
			}
		})
	}
}

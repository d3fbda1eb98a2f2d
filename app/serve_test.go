package app

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"fixthis/app/events"
	"fixthis/app/httpapi"
)

func testApp(t *testing.T) *App {
	t.Helper()
	return New(Options{
		Version:        "1.2.3-test",
		ProjectDir:     t.TempDir(),
		Mode:           ModeServe,
		Console:        fstest.MapFS{"index.html": {Data: []byte("<!doctype html><title>FixThis</title>")}},
		KeepAliveEvery: 50 * time.Millisecond,
	})
}

func TestConsoleGuard(t *testing.T) {
	a := testApp(t)
	h := a.serveMux(4321, "127.0.0.1")
	tests := []struct {
		name       string
		method     string
		target     string
		host       string
		origin     string
		token      string
		bearer     string
		wantStatus int
		wantCode   string
	}{
		{"no token", "GET", "/api/health", "127.0.0.1:4321", "", "", "", 401, "unauthorized"},
		{"wrong token", "GET", "/api/health", "127.0.0.1:4321", "", "nope", "", 401, "unauthorized"},
		{"header token", "GET", "/api/health", "127.0.0.1:4321", "", a.consoleToken, "", 200, ""},
		{"query token only on the event stream", "GET", "/api/health?consoleToken=" + a.consoleToken, "127.0.0.1:4321", "", "", "", 401, "unauthorized"},
		{"console token as Bearer", "GET", "/api/health", "127.0.0.1:4321", "", "", a.consoleToken, 401, "unauthorized"},
		{"query token refused on POST", "POST", "/api/health?consoleToken=" + a.consoleToken, "127.0.0.1:4321", "", "", "", 401, "unauthorized"},
		{"localhost host", "GET", "/api/health", "localhost:4321", "", a.consoleToken, "", 200, ""},
		{"ipv6 loopback host", "GET", "/api/health", "[::1]:4321", "", a.consoleToken, "", 200, ""},
		{"foreign host (DNS rebinding)", "GET", "/api/health", "evil.example:4321", "", a.consoleToken, "", 403, "forbidden_host"},
		{"foreign origin mutating", "POST", "/api/sessions", "127.0.0.1:4321", "http://evil.example", a.consoleToken, "", 403, "forbidden_origin"},
		{"other loopback port mutating", "POST", "/api/sessions", "127.0.0.1:4321", "http://127.0.0.1:9999", a.consoleToken, "", 403, "forbidden_origin"},
		{"own origin mutating passes the guard", "POST", "/api/nothing-here", "127.0.0.1:4321", "http://127.0.0.1:4321", a.consoleToken, "", 404, "not_found"},
		{"foreign origin on GET is not a mutation", "GET", "/api/health", "127.0.0.1:4321", "http://evil.example", a.consoleToken, "", 200, ""},
		{"MCP token refused on console API", "GET", "/api/health", "127.0.0.1:4321", "", "", a.mcpToken, 403, "wrong_token"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(tc.method, tc.target, nil)
			req.Host = tc.host
			if tc.origin != "" {
				req.Header.Set("Origin", tc.origin)
			}
			if tc.token != "" {
				req.Header.Set(ConsoleTokenHeader, tc.token)
			}
			if tc.bearer != "" {
				req.Header.Set("Authorization", "Bearer "+tc.bearer)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tc.wantStatus {
				t.Fatalf("status = %d, want %d; body %s", rec.Code, tc.wantStatus, rec.Body)
			}
			if tc.wantCode != "" {
				var body httpapi.ErrorBody
				if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
					t.Fatalf("error body is not JSON: %q", rec.Body)
				}
				if string(body.Error) != tc.wantCode || body.Message == "" {
					t.Fatalf("error body = %+v, want code %q with a message", body, tc.wantCode)
				}
			}
		})
	}
}

func TestHealth(t *testing.T) {
	a := testApp(t)
	rec := httptest.NewRecorder()
	a.APIHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/api/health", nil))
	if rec.Code != 200 {
		t.Fatalf("status %d", rec.Code)
	}
	var got map[string]string
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got["status"] != "ok" || got["version"] != "1.2.3-test" {
		t.Fatalf("health = %v", got)
	}
}

func TestConsoleAssetsNeedNoTokenButLoopback(t *testing.T) {
	a := testApp(t)
	h := a.serveMux(4321, "127.0.0.1")
	for _, tc := range []struct {
		name, path, host string
		code             int
		body             string // "" when any body will do
	}{
		{"index", "/", "127.0.0.1:4321", 200, "<title>FixThis</title>"},
		{"deep link falls back to index", "/some/deep/link", "localhost:4321", 200, ""},
		{"foreign host on assets", "/", "attacker.example", 403, ""},
	} {
		req := httptest.NewRequest("GET", tc.path, nil)
		req.Host = tc.host
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != tc.code || !strings.Contains(rec.Body.String(), tc.body) {
			t.Fatalf("%s: %d %q, want %d", tc.name, rec.Code, rec.Body, tc.code)
		}
	}
}

// sseReader reads one SSE frame (lines up to a blank line) at a time.
type sseFrame struct {
	id, event, data string
	comment         string
}

func readFrame(t *testing.T, r *bufio.Reader) sseFrame {
	t.Helper()
	var f sseFrame
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("read SSE: %v (partial frame %+v)", err, f)
		}
		line = strings.TrimRight(line, "\n")
		switch {
		case line == "":
			return f
		case strings.HasPrefix(line, ":"):
			f.comment = strings.TrimSpace(line[1:])
		case strings.HasPrefix(line, "id: "):
			f.id = line[4:]
		case strings.HasPrefix(line, "event: "):
			f.event = line[7:]
		case strings.HasPrefix(line, "data: "):
			f.data += line[6:]
		}
	}
}

func TestEventsSnapshotThenEventsThenKeepAlive(t *testing.T) {
	a := testApp(t)
	srv := httptest.NewServer(a.APIHandler())
	defer srv.Close()
	defer a.Shutdown()

	resp, err := http.Get(srv.URL + "/api/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	r := bufio.NewReader(resp.Body)
	first := readFrame(t, r)
	if first.event != "snapshot" {
		t.Fatalf("first event = %+v, want snapshot", first)
	}
	var snap map[string]any
	if err := json.Unmarshal([]byte(first.data), &snap); err != nil || snap["version"] != "1.2.3-test" {
		t.Fatalf("snapshot data %q (%v)", first.data, err)
	}
	heartbeat := events.Define[map[string]string]("heartbeat")
	id := heartbeat.Publish(a.bus, map[string]string{"at": "now"})
	ev := readFrame(t, r)
	if ev.event != "heartbeat" || ev.id == "" || ev.data != `{"at":"now"}` {
		t.Fatalf("event frame = %+v (published id %d)", ev, id)
	}
	ka := readFrame(t, r)
	if ka.comment != "keep-alive" || ka.event != "" {
		t.Fatalf("keep-alive frame = %+v", ka)
	}
}

func TestEventsReplayFromLastEventID(t *testing.T) {
	a := testApp(t)
	srv := httptest.NewServer(a.APIHandler())
	defer srv.Close()
	defer a.Shutdown()
	first := SessionsUpdatedEvent.Publish(a.bus, SessionsUpdate{SessionID: "a", Deleted: true})
	SessionsUpdatedEvent.Publish(a.bus, SessionsUpdate{SessionID: "b", Deleted: true})
	SessionsUpdatedEvent.Publish(a.bus, SessionsUpdate{SessionID: "c", Deleted: true})

	req, _ := http.NewRequest("GET", srv.URL+"/api/events", nil)
	req.Header.Set("Last-Event-ID", jsonNumber(first))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	r := bufio.NewReader(resp.Body)
	if f := readFrame(t, r); f.event != "snapshot" {
		t.Fatalf("want snapshot first, got %+v", f)
	}
	for _, want := range []string{"b", "c"} {
		f := readFrame(t, r)
		if !strings.Contains(f.data, `"`+want+`"`) {
			t.Fatalf("replayed %+v, want session %s", f, want)
		}
	}
}

func TestEventsReplayOverflow(t *testing.T) {
	a := testApp(t)
	a.bus = events.NewBus(4)
	srv := httptest.NewServer(a.APIHandler())
	defer srv.Close()
	defer a.Shutdown()
	heartbeat := events.Define[int]("heartbeat")
	for i := 0; i < 20; i++ {
		heartbeat.Publish(a.bus, i)
	}
	req, _ := http.NewRequest("GET", srv.URL+"/api/events", nil)
	req.Header.Set("Last-Event-ID", "2")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	r := bufio.NewReader(resp.Body)
	readFrame(t, r) // snapshot
	if f := readFrame(t, r); f.event != "replay-overflow" {
		t.Fatalf("want replay-overflow, got %+v", f)
	}
}

func jsonNumber(n uint64) string { b, _ := json.Marshal(n); return string(b) }

func TestServeShutsDownGracefullyWithOpenStream(t *testing.T) {
	a := testApp(t)
	ctx, cancel := context.WithCancel(context.Background())
	infoc := make(chan ServeInfo, 1)
	done := make(chan error, 1)
	go func() { done <- a.Serve(ctx, "127.0.0.1:0", func(i ServeInfo) { infoc <- i }) }()
	info := <-infoc
	if !strings.HasPrefix(info.ConsoleURL, info.URL+"#token=") || info.Token == "" || info.Port == 0 {
		t.Fatalf("serve info %+v", info)
	}
	resp, err := http.Get(info.URL + "api/events?consoleToken=" + info.Token)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	readFrame(t, bufio.NewReader(resp.Body))
	start := time.Now()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve returned %v", err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("Serve did not return after cancel with an open SSE stream")
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("shutdown took %v", d)
	}
	if _, err := io.ReadAll(resp.Body); err != nil && !strings.Contains(err.Error(), "EOF") {
		t.Logf("stream ended with %v", err)
	}
}

func TestServeRefusesNonLoopback(t *testing.T) {
	a := testApp(t)
	err := a.Serve(context.Background(), "0.0.0.0:0", nil)
	if err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Fatalf("err = %v", err)
	}
}

func TestPreviewStageHeightIsClamped(t *testing.T) {
	a := testApp(t)
	h := a.APIHandler()
	tests := []struct {
		body       string
		wantStatus int
		wantHeight int64
	}{
		{`{"height":1400}`, 200, 1400},
		{`{"height":90}`, 200, 360},
		{`{"height":99999}`, 200, 2400},
		{`{"height":0}`, 422, 2400},
		{`not json`, 400, 2400},
	}
	for _, tc := range tests {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/preview/stage", strings.NewReader(tc.body)))
		if rec.Code != tc.wantStatus {
			t.Fatalf("%s: status %d, want %d (%s)", tc.body, rec.Code, tc.wantStatus, rec.Body)
		}
		if got := int64(a.device.Preview.StageHeight()); got != tc.wantHeight {
			t.Fatalf("%s: stage height %d, want %d", tc.body, got, tc.wantHeight)
		}
	}
}

// TestServeOnIPv6Loopback: `serve --addr '[::1]:0'` prints URLs on [::1] that
// work, and the console's own origin there may change state.
func TestServeOnIPv6Loopback(t *testing.T) {
	ln, err := net.Listen("tcp", "[::1]:0")
	if err != nil {
		t.Skipf("no IPv6 loopback here: %v", err)
	}
	ln.Close()
	a := testApp(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	infoc := make(chan ServeInfo, 1)
	go func() { _ = a.Serve(ctx, "[::1]:0", func(i ServeInfo) { infoc <- i }) }()
	info := <-infoc
	origin := "http://[::1]:" + strconv.Itoa(info.Port)
	if info.URL != origin+"/" || !strings.HasPrefix(info.ConsoleURL, origin+"/#token=") {
		t.Fatalf("serve on [::1] printed %+v", info)
	}
	req, _ := http.NewRequest("POST", info.URL+"api/nothing-here", strings.NewReader("{}"))
	req.Header.Set(ConsoleTokenHeader, info.Token)
	req.Header.Set("Origin", origin)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("printed URL does not work: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("own [::1] origin: status %d, want 404 past the guard", resp.StatusCode)
	}
}

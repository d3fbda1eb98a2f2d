package capture

import (
	"context"
	"encoding/json"
	"errors"
	"fixthis/internal/sidekick"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// serveSidekick answers framed requests on conn the way the in-app sidekick does.
func serveSidekick(t *testing.T, conn net.Conn, token string, handle func(method string) (any, *SidekickError)) {
	t.Helper()
	defer conn.Close()
	for {
		msg, err := sidekick.ReadFrame(conn)
		if err != nil {
			return
		}
		var req struct {
			ID     int64           `json:"id"`
			Token  string          `json:"token"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal(msg, &req); err != nil {
			t.Errorf("bad request %q: %v", msg, err)
			return
		}
		resp := map[string]any{"id": req.ID}
		if req.Token != token {
			resp["error"] = SidekickError{Code: "unauthorized", Message: "bad token"}
		} else if res, serr := handle(req.Method); serr != nil {
			resp["error"] = serr
		} else {
			resp["result"] = res
		}
		// A stale answer first, as after a timed-out call, which the client skips.
		stale, _ := json.Marshal(map[string]any{"id": req.ID + 1000, "result": map[string]any{}})
		body, _ := json.Marshal(resp)
		if sidekick.WriteFrame(conn, stale) != nil || sidekick.WriteFrame(conn, body) != nil {
			return
		}
	}
}

func TestParseSidekickSession(t *testing.T) {
	tests := []struct {
		in string
		ok bool
	}{
		{`{"protocol":"1.3","socket":"fixthis_com.example.notes","token":"s3cr3t"}`, true},
		{`{"protocol":"2.0","socket":"fixthis_x","token":"t"}`, false},
		{`{"protocol":"1.3","socket":"other","token":"t"}`, false},
		{`{"protocol":"1.3","socket":"fixthis_x"}`, false},
		{`run-as: package not debuggable: com.example`, false},
	}
	for _, tt := range tests {
		_, err := sidekick.ParseSession([]byte(tt.in))
		if (err == nil) != tt.ok {
			t.Errorf("%s: err = %v", tt.in, err)
		}
		if err != nil && !errors.Is(err, ErrNoSidekick) {
			t.Errorf("%s: error does not wrap ErrNoSidekick", tt.in)
		}
	}
	dev := &scriptedDevice{shell: map[string][]reply{
		"run-as com.example.notes cat files/fixthis/session.json": {{out: []byte(tests[0].in)}},
		"run-as com.other cat files/fixthis/session.json":         {{stderr: []byte("run-as: package not debuggable: com.other"), code: 1}},
	}}
	if s, err := ReadSidekickSession(context.Background(), dev, "com.example.notes"); err != nil || s.Token != "s3cr3t" {
		t.Errorf("session = %+v %v", s, err)
	}
	if _, err := ReadSidekickSession(context.Background(), dev, "com.other"); !errors.Is(err, ErrNoSidekick) {
		t.Errorf("not debuggable: %v", err)
	}
}

var sidekickScreen = SidekickScreen{
	Protocol: "1.3", Package: "com.example.notes", Activity: "com.example.notes.MainActivity", Width: 1080, Height: 2400,
	Nodes: []Node{
		{UID: "s1", IndexPath: "0", Class: "androidx.compose.ui.layout.Root", Bounds: Bounds{Left: 0, Top: 0, Right: 1080, Bottom: 2400}, Compose: true},
		{UID: "s2", ParentUID: "s1", IndexPath: "0.0", Class: "android.widget.EditText", Text: "my secret", ResourceID: "password_field",
			Password: true, Bounds: Bounds{Left: 40, Top: 300, Right: 1040, Bottom: 420}, Compose: true},
		{UID: "s3", ParentUID: "s1", IndexPath: "0.1", Class: "android.widget.Button", Text: "Sign in", ResourceID: "sign_in",
			Clickable: true, Bounds: Bounds{Left: 40, Top: 500, Right: 1040, Bottom: 620}, Compose: true},
	},
}

func TestSidekickClientPipe(t *testing.T) {
	var dials atomic.Int32
	client := &SidekickClient{
		Session: SidekickSession{Protocol: "1.3", Socket: "fixthis_com.example.notes", Token: "tok"},
		Dial: func(ctx context.Context) (net.Conn, error) {
			dials.Add(1)
			c, s := net.Pipe()
			go serveSidekick(t, s, "tok", func(method string) (any, *SidekickError) {
				if method != "inspectCurrentScreen" {
					return nil, &SidekickError{Code: "unknown_method", Message: method}
				}
				return sidekickScreen, nil
			})
			return c, nil
		},
	}
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for range 3 {
		s, err := client.InspectCurrentScreen(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Nodes) != 3 || s.Activity != "com.example.notes.MainActivity" {
			t.Fatalf("screen = %+v", s)
		}
		if n := s.Nodes[1]; n.Text != "" || !n.Redacted || n.TestTag != "password_field" || n.Role != "TextField" {
			t.Errorf("password node not redacted: %+v", n)
		}
		if n := s.Nodes[2]; n.Role != "Button" || n.TestTag != "sign_in" {
			t.Errorf("button node: %+v", n)
		}
	}
	if dials.Load() != 1 {
		t.Errorf("dialled %d times, want the connection kept", dials.Load())
	}
	var se *SidekickError
	if err := client.Call(ctx, "nope", nil, nil); !errors.As(err, &se) || se.Code != "unknown_method" {
		t.Errorf("error answer: %v", err)
	}
	// The app restarts: the kept connection dies, the next call dials again.
	client.mu.Lock()
	client.conn.Close()
	client.mu.Unlock()
	if _, err := client.InspectCurrentScreen(ctx); err != nil {
		t.Fatalf("after reconnect: %v", err)
	}
	if dials.Load() != 2 {
		t.Errorf("dials = %d, want 2", dials.Load())
	}
}

func TestSidekickClientLoopbackAndCancel(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	block := make(chan struct{})
	defer close(block)
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go serveSidekick(t, conn, "tok", func(method string) (any, *SidekickError) {
				if method == "hang" {
					<-block
				}
				return sidekickScreen, nil
			})
		}
	}()
	var d net.Dialer
	client := &SidekickClient{
		Session: SidekickSession{Token: "tok"},
		Dial:    func(ctx context.Context) (net.Conn, error) { return d.DialContext(ctx, "tcp", ln.Addr().String()) },
	}
	defer client.Close()
	if _, err := client.InspectCurrentScreen(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := client.Call(ctx, "hang", nil, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("hung call: %v", err)
	}
	if time.Since(start) > 2*time.Second {
		t.Error("cancellation did not interrupt the read")
	}
	bad := &SidekickClient{Session: SidekickSession{Token: "wrong"}, Dial: client.Dial}
	defer bad.Close()
	if _, err := bad.InspectCurrentScreen(context.Background()); err == nil || !strings.Contains(err.Error(), "unauthorized") {
		t.Errorf("wrong token: %v", err)
	}
}

func TestCaptureUsesSidekickThenFallsBack(t *testing.T) {
	src := testScreen(1080, 2400, 0)
	newDev := func() *scriptedDevice {
		return &scriptedDevice{
			exec:  map[string][]reply{"screencap": {{out: rawFrame(src, FormatRGBA8888, 16, 0)}}, "uiautomator dump /dev/tty": {{out: []byte(smallDump)}}},
			shell: stateShell(t),
		}
	}
	ok := &SidekickClient{Session: SidekickSession{Token: "tok"}, Dial: func(ctx context.Context) (net.Conn, error) {
		c, s := net.Pipe()
		go serveSidekick(t, s, "tok", func(string) (any, *SidekickError) { return sidekickScreen, nil })
		return c, nil
	}}
	defer ok.Close()
	dev := newDev()
	snap, err := Capture(context.Background(), dev, Options{Sidekick: ok})
	if err != nil || snap.TreeSource != TreeFromSidekick || len(snap.Nodes) != 3 {
		t.Fatalf("sidekick capture: %+v %v", snap, err)
	}
	if dev.ran("uiautomator dump /dev/tty") {
		t.Error("uiautomator ran although the sidekick answered")
	}
	gone := &SidekickClient{Session: SidekickSession{Token: "tok"}, Dial: func(ctx context.Context) (net.Conn, error) {
		return nil, errors.New("connection refused")
	}}
	snap, err = Capture(context.Background(), newDev(), Options{Sidekick: gone})
	if err != nil || snap.TreeSource != TreeFromUIAutomator || len(snap.Nodes) != 2 {
		t.Fatalf("fallback capture: %+v %v", snap, err)
	}
}

package capture

import (
	"context"
	"encoding/json"
	"errors"
	"fixthis/internal/sidekick"
	"fixthis/internal/sidekick/sidekicktest"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const goldenToken = "q3Vv0mJx8y1Zr2Kc5Tn9Wb4Hs7Pd6Lf0Ae3Gu1Io8Qk="

func goldenSession(t *testing.T) SidekickSession {
	t.Helper()
	s, err := sidekick.ParseSession(sidekicktest.Message(t, "session.json"), "com.example.notes")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fakeBridge answers framed requests on conn like the in-app sidekick: with the
// golden response named by answer(request), the request's id put in. A stale answer
// to another id comes first, as after a timed-out call, which the client must skip.
func fakeBridge(t *testing.T, conn net.Conn, answer func(req map[string]any) string, seen func([]byte)) {
	defer conn.Close()
	for {
		msg, err := sidekick.ReadFrame(conn)
		if err != nil {
			return
		}
		if seen != nil {
			seen(msg)
		}
		var req map[string]any
		if err := json.Unmarshal(msg, &req); err != nil {
			t.Errorf("request %q: %v", msg, err)
			return
		}
		name := answer(req)
		if name == "" {
			return // hang up without answering
		}
		var resp map[string]any
		if err := json.Unmarshal(sidekicktest.Message(t, name), &resp); err != nil {
			t.Error(err)
			return
		}
		if _, ok := resp["id"]; ok {
			resp["id"] = req["id"]
		}
		stale, _ := json.Marshal(map[string]any{"id": "req_999", "ok": true, "result": map[string]any{}})
		body, _ := json.Marshal(resp)
		if sidekick.WriteFrame(conn, stale) != nil || sidekick.WriteFrame(conn, body) != nil {
			return
		}
	}
}

func TestParseSidekickSession(t *testing.T) {
	good := string(sidekicktest.Message(t, "session.json"))
	tests := []struct {
		name, in string
		ok       bool
	}{
		{"golden", good, true},
		{"protocol 2", strings.Replace(good, `"bridgeProtocolVersion": "1.3"`, `"bridgeProtocolVersion": "2.0"`, 1), false},
		{"protocol 1.2", strings.Replace(good, `"bridgeProtocolVersion": "1.3"`, `"bridgeProtocolVersion": "1.2"`, 1), false},
		{"protocol 1.4", strings.Replace(good, `"bridgeProtocolVersion": "1.3"`, `"bridgeProtocolVersion": "1.4"`, 1), false},
		{"bound -1", strings.Replace(good, `"socketName": "fixthis_com.example.notes"`, `"socketName": "fixthis_com.example.notes-1"`, 1), true},
		{"bound -2", strings.Replace(good, `"socketName": "fixthis_com.example.notes"`, `"socketName": "fixthis_com.example.notes-2"`, 1), true},
		{"no -3", strings.Replace(good, `"socketName": "fixthis_com.example.notes"`, `"socketName": "fixthis_com.example.notes-3"`, 1), false},
		{"other package", strings.Replace(good, `"packageName": "com.example.notes"`, `"packageName": "com.other"`, 1), false},
		{"odd socket", strings.Replace(good, `"socketName": "fixthis_com.example.notes"`, `"socketName": "other"`, 1), false},
		{"no token", strings.Replace(good, goldenToken, "", 1), false},
		{"old dialect", `{"protocol":"1.3","socket":"fixthis_com.example.notes","token":"t"}`, false},
		{"not json", `run-as: package not debuggable: com.example`, false},
	}
	for _, tt := range tests {
		s, err := sidekick.ParseSession([]byte(tt.in), "com.example.notes")
		if (err == nil) != tt.ok {
			t.Errorf("%s: err = %v", tt.name, err)
		}
		if err != nil && !errors.Is(err, ErrNoSidekick) {
			t.Errorf("%s: error does not wrap ErrNoSidekick", tt.name)
		}
		if tt.ok && (s.Token != goldenToken || sidekick.SocketAttempt(s.SocketName, "com.example.notes") < 0 || s.CreatedAtEpochMillis != 1764547200000) {
			t.Errorf("%s: session = %+v", tt.name, s)
		}
	}
	// The error of a version mismatch names what the app speaks and what FixThis supports.
	_, err := sidekick.ParseSession([]byte(strings.Replace(good, `"bridgeProtocolVersion": "1.3"`, `"bridgeProtocolVersion": "1.4"`, 1)), "com.example.notes")
	if err == nil || !strings.Contains(err.Error(), `"1.4"`) || !strings.Contains(err.Error(), "exactly 1.3") {
		t.Errorf("version error %v", err)
	}
	dev := &scriptedDevice{shell: map[string][]reply{
		"run-as com.example.notes cat files/fixthis/session.json": {{out: []byte(good)}},
		"run-as com.other cat files/fixthis/session.json":         {{stderr: []byte("run-as: package not debuggable: com.other"), code: 1}},
	}}
	if s, err := ReadSidekickSession(context.Background(), dev, "com.example.notes"); err != nil || s.Token != goldenToken {
		t.Errorf("session = %+v %v", s, err)
	}
	if _, err := ReadSidekickSession(context.Background(), dev, "com.other"); !errors.Is(err, ErrNoSidekick) {
		t.Errorf("not debuggable: %v", err)
	}
}

// TestSidekickGolden: the client's request is the golden request, and the golden
// response decodes into the nodes a person sees on that login screen.
func TestSidekickGolden(t *testing.T) {
	var mu sync.Mutex
	var requests [][]byte
	client := &SidekickClient{Session: goldenSession(t), Dial: func(ctx context.Context, socket string) (net.Conn, error) {
		c, s := net.Pipe()
		go fakeBridge(t, s, func(map[string]any) string { return "inspect.response.json" }, func(b []byte) {
			mu.Lock()
			requests = append(requests, b)
			mu.Unlock()
		})
		return c, nil
	}}
	defer client.Close()
	insp, err := client.InspectCurrentScreen(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := sidekicktest.Equal(sidekicktest.Message(t, "inspect.request.json"), requests[0]); err != nil {
		t.Errorf("request: %v", err)
	}
	nodes, err := SidekickNodes(insp, ScreenState{}, "com.example.notes")
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes) != 10 {
		t.Fatalf("%d nodes, want the 10 of the merged tree", len(nodes))
	}
	byTag := map[string]Node{}
	byText := map[string]Node{}
	for _, n := range nodes {
		if !n.Compose || n.Package != "com.example.notes" {
			t.Errorf("node %s: compose %t package %q", n.UID, n.Compose, n.Package)
		}
		byTag[n.TestTag], byText[n.Text+n.ContentDescription] = n, n
	}
	root := nodes[0]
	if root.UID != "n0" || root.ParentUID != "" || root.Bounds != (Bounds{Left: 0, Top: 0, Right: 1080, Bottom: 2400}) {
		t.Errorf("root = %+v", root)
	}
	if n := byText["Sign in to Notes"]; n.Role != "Text" || n.Class != "android.widget.TextView" || n.Bounds != (Bounds{Left: 64, Top: 220, Right: 513, Bottom: 301}) || n.ParentUID != "n0" {
		t.Errorf("title = %+v", n)
	}
	if n := byTag["email"]; !n.Editable || n.Role != "TextField" || n.Class != "android.widget.EditText" || n.Text != "" || !n.Redacted || !n.Clickable {
		t.Errorf("email = %+v", n)
	}
	if n := byTag["password"]; !n.Password || !n.Editable || n.Text != "" || !n.Redacted {
		t.Errorf("password = %+v", n)
	}
	if n := byTag["remember"]; n.Role != "Checkbox" || !n.Checkable || !n.Checked || !n.Clickable || n.Text != "Remember me" {
		t.Errorf("checkbox = %+v", n)
	}
	if n := byTag["comp:LoginScreen:sign_in"]; n.Role != "Button" || n.Class != "android.widget.Button" || !n.Clickable || n.Text != "Sign in" {
		t.Errorf("button = %+v", n)
	}
	if n := byText["Help"]; n.Role != "Tab" || !n.Selected {
		t.Errorf("tab = %+v", n)
	}
	list := byTag["links"]
	if list.Role != "List" || !list.Scrollable {
		t.Errorf("list = %+v", list)
	}
	if n := byText["Privacy policyOpens the privacy policy"]; n.Enabled || n.ParentUID != list.UID || n.IndexPath != list.IndexPath+".0" {
		t.Errorf("list item = %+v (list %s)", n, list.UID)
	}
	if n := byText["Settings"]; n.Role != "Image" || n.Class != "android.widget.ImageView" {
		t.Errorf("icon = %+v", n)
	}
}

// TestSidekickNodesChecks: the answer is used only when it describes the screen in
// front, in screen coordinates.
func TestSidekickNodesChecks(t *testing.T) {
	decode := func(name string) *SidekickInspection {
		var resp struct{ Result SidekickInspection }
		if err := json.Unmarshal(sidekicktest.Message(t, name), &resp); err != nil {
			t.Fatal(err)
		}
		return &resp.Result
	}
	front := ScreenState{Package: "com.example.notes", Activity: "com.example.notes.LoginActivity", ScreenOn: true,
		Windows: []Window{{Type: WindowApp, Package: "com.example.notes", Visible: true, Bounds: Bounds{Left: 0, Top: 1240, Right: 1080, Bottom: 2400}}}}
	nodes, err := SidekickNodes(decode("inspect.response.json"), front, "com.example.notes")
	if err != nil {
		t.Fatal(err)
	}
	if b := nodes[0].Bounds; b != (Bounds{Left: 0, Top: 1240, Right: 1080, Bottom: 3640}) {
		t.Errorf("root in a window at y=1240 = %+v", b)
	}
	withDialog := front
	withDialog.Windows = append([]Window{{Type: WindowDialog, Package: "com.example.notes", Visible: true, Focused: true}}, front.Windows...)
	otherActivity := front
	otherActivity.Activity = "com.example.notes.EditorActivity"
	locked := front
	locked.Keyguard = true
	for _, tt := range []struct {
		name, golden string
		state        ScreenState
	}{
		{"inspection errors", "inspect_errors.response.json", front},
		{"no activity", "inspect_no_activity.response.json", front},
		{"other activity", "inspect.response.json", otherActivity},
		{"dialog", "inspect.response.json", withDialog},
		{"locked", "inspect.response.json", locked},
		{"no nodes (state unknown)", "inspect_errors.response.json", ScreenState{}},
	} {
		if _, err := SidekickNodes(decode(tt.golden), tt.state, "com.example.notes"); !errors.Is(err, ErrSidekickTreeUnused) {
			t.Errorf("%s: err = %v, want the tree refused", tt.name, err)
		}
	}
}

func TestSidekickClientErrorsAndRetries(t *testing.T) {
	ctx := context.Background()
	// A request the sidekick cannot read is answered BAD_REQUEST without an id: the
	// call returns it at once instead of waiting for an answer with its id.
	var dials []string
	client := &SidekickClient{Session: goldenSession(t), Dial: func(ctx context.Context, socket string) (net.Conn, error) {
		dials = append(dials, socket)
		c, s := net.Pipe()
		if !strings.HasSuffix(socket, "-1") {
			s.Close() // nobody listens on this name: the forward hangs up
			return c, nil
		}
		go fakeBridge(t, s, func(req map[string]any) string {
			switch req["method"] {
			case "heartbeat":
				return "heartbeat.response.json"
			case "broken":
				return "bad_request.response.json"
			}
			return "unknown_method.response.json"
		}, nil)
		return c, nil
	}}
	defer client.Close()
	if err := client.Heartbeat(ctx); err != nil {
		t.Fatal(err)
	}
	want := []string{"fixthis_com.example.notes", "fixthis_com.example.notes-1"}
	if strings.Join(dials, ",") != strings.Join(want, ",") {
		t.Errorf("dialled %v, want %v", dials, want)
	}
	start := time.Now()
	var se *SidekickError
	if err := client.Call(ctx, "broken", nil, nil); !errors.As(err, &se) || se.Code != sidekick.CodeBadRequest {
		t.Errorf("bad request: %v", err)
	}
	if time.Since(start) > time.Second {
		t.Errorf("BAD_REQUEST took %v", time.Since(start))
	}
	if err := client.Call(ctx, "teleport", nil, nil); !errors.As(err, &se) || se.Code != sidekick.CodeUnknownMethod {
		t.Errorf("unknown method: %v", err)
	}
	// The kept connection dies: the next call dials the name that answered, only.
	client.mu.Lock()
	client.conn.close()
	client.mu.Unlock()
	dials = nil
	if err := client.Heartbeat(ctx); err != nil || len(dials) != 1 || dials[0] != want[1] {
		t.Errorf("after the connection died: %v, dialled %v", err, dials)
	}
}

func TestSidekickClientUnauthorizedRereads(t *testing.T) {
	fresh := goldenSession(t)
	stale := fresh
	stale.Token = "a-token-from-before-the-app-restarted"
	var rereads atomic.Int32
	dial := func(ctx context.Context, socket string) (net.Conn, error) {
		c, s := net.Pipe()
		go fakeBridge(t, s, func(req map[string]any) string {
			if req["token"] != fresh.Token {
				return "unauthorized.response.json"
			}
			return "heartbeat.response.json"
		}, nil)
		return c, nil
	}
	client := &SidekickClient{Session: stale, Dial: dial, Reread: func(context.Context) (SidekickSession, error) {
		rereads.Add(1)
		return fresh, nil
	}}
	defer client.Close()
	if err := client.Heartbeat(context.Background()); err != nil || rereads.Load() != 1 {
		t.Errorf("after re-reading the session: %v (%d re-reads)", err, rereads.Load())
	}
	// The file still holds a token the app refuses: one re-read, then the error.
	stuck := &SidekickClient{Session: stale, Dial: dial, Reread: func(context.Context) (SidekickSession, error) {
		rereads.Add(1)
		return stale, nil
	}}
	defer stuck.Close()
	var se *SidekickError
	if err := stuck.Heartbeat(context.Background()); !errors.As(err, &se) || se.Code != sidekick.CodeUnauthorized || rereads.Load() != 2 {
		t.Errorf("unauthorized twice: %v (%d re-reads)", err, rereads.Load())
	}
}

func TestSidekickClientDeadline(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { // reads requests, never answers
				defer conn.Close()
				for {
					if _, err := sidekick.ReadFrame(conn); err != nil {
						return
					}
				}
			}()
		}
	}()
	var d net.Dialer
	client := &SidekickClient{Session: goldenSession(t), Dial: func(ctx context.Context, _ string) (net.Conn, error) {
		return d.DialContext(ctx, "tcp", ln.Addr().String())
	}}
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := client.Heartbeat(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("silent sidekick: %v", err)
	}
	if time.Since(start) > 2*time.Second {
		t.Error("the deadline did not interrupt the read")
	}
}

// A call cut by its deadline leaves the connection up (upstream's bridge would throw
// an uncaught IOException writing into a closed socket); the late answer is read
// and dropped, and the next call gets its own answer on the same connection.
func TestSidekickClientKeepsTheConnectionPastADeadline(t *testing.T) {
	var dials atomic.Int32
	closedUnder := make(chan bool, 4) // per request: was the socket closed before the answer went out
	client := &SidekickClient{Session: goldenSession(t), Dial: func(ctx context.Context, socket string) (net.Conn, error) {
		dials.Add(1)
		c, s := net.Pipe()
		go func() {
			defer s.Close()
			for n := 0; ; n++ {
				msg, err := sidekick.ReadFrame(s)
				if err != nil {
					return
				}
				var req sidekick.Request
				_ = json.Unmarshal(msg, &req)
				if n == 0 {
					time.Sleep(300 * time.Millisecond) // a slow inspection
				}
				body, _ := json.Marshal(map[string]any{"id": req.ID, "ok": true, "result": map[string]any{"connected": true}})
				closedUnder <- sidekick.WriteFrame(s, body) != nil
			}
		}()
		return c, nil
	}}
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := client.Heartbeat(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("slow call: %v", err)
	}
	if err := client.Heartbeat(context.Background()); err != nil {
		t.Fatalf("the call after: %v", err)
	}
	for range 2 {
		if <-closedUnder {
			t.Error("the app's answer was written into a closed socket")
		}
	}
	if dials.Load() != 1 || client.DroppedAnswers() != 1 {
		t.Errorf("%d dials, %d late answers dropped; want 1 and 1", dials.Load(), client.DroppedAnswers())
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
	// The state's resumed activity is com.example.notes.ui.EditorActivity.
	sess := goldenSession(t)
	bridge := func(activity string) *SidekickClient {
		return &SidekickClient{Session: sess, Dial: func(ctx context.Context, socket string) (net.Conn, error) {
			c, s := net.Pipe()
			go func() {
				defer s.Close()
				msg, err := sidekick.ReadFrame(s)
				if err != nil {
					return
				}
				var req sidekick.Request
				_ = json.Unmarshal(msg, &req)
				var resp map[string]any
				_ = json.Unmarshal(sidekicktest.Message(t, "inspect.response.json"), &resp)
				resp["id"] = req.ID
				resp["result"].(map[string]any)["activity"] = activity
				body, _ := json.Marshal(resp)
				_ = sidekick.WriteFrame(s, body)
			}()
			return c, nil
		}}
	}
	ok := bridge("com.example.notes.ui.EditorActivity")
	defer ok.Close()
	dev := newDev()
	snap, err := Capture(context.Background(), dev, Options{Sidekick: ok})
	if err != nil || snap.TreeSource != TreeFromSidekick || len(snap.Nodes) != 10 || snap.SidekickErr != nil {
		t.Fatalf("sidekick capture: source %q, %d nodes, %v / %v", snap.TreeSource, len(snap.Nodes), snap.SidekickErr, err)
	}
	if dev.ran("uiautomator dump /dev/tty") {
		t.Error("uiautomator ran although the sidekick answered")
	}
	behind := bridge("com.example.notes.LoginActivity")
	defer behind.Close()
	snap, err = Capture(context.Background(), newDev(), Options{Sidekick: behind})
	if err != nil || snap.TreeSource != TreeFromUIAutomator || len(snap.Nodes) != 2 || !errors.Is(snap.SidekickErr, ErrSidekickTreeUnused) {
		t.Fatalf("activity not in front: source %q, %v / %v", snap.TreeSource, snap.SidekickErr, err)
	}
	gone := &SidekickClient{Session: sess, Dial: func(ctx context.Context, socket string) (net.Conn, error) {
		return nil, errors.New("connection refused")
	}}
	snap, err = Capture(context.Background(), newDev(), Options{Sidekick: gone})
	if err != nil || snap.TreeSource != TreeFromUIAutomator || len(snap.Nodes) != 2 || snap.SidekickErr == nil || errors.Is(snap.SidekickErr, ErrSidekickTreeUnused) {
		t.Fatalf("fallback capture: source %q, %v / %v", snap.TreeSource, snap.SidekickErr, err)
	}
}

package voice

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// hostilePeer is a Realtime server that misbehaves: it listens on loopback only
// (httptest binds 127.0.0.1), greets as the API does unless told otherwise, hands
// each connection to the test to attack, and counts how the client answered its
// tool calls.
type hostilePeer struct {
	t   *testing.T
	srv *httptest.Server
	// greet runs the handshake on a new socket; false ends the connection.
	greet func(ws *websocket.Conn) bool
	live  chan *websocket.Conn

	mu      sync.Mutex
	reasons map[string]int // function_call_output reasons ("" for ok)
	answers int
	longest int // the longest function_call_output, in bytes
}

func newHostilePeer(t *testing.T, greet func(ws *websocket.Conn) bool) *hostilePeer {
	t.Helper()
	p := &hostilePeer{t: t, greet: greet, live: make(chan *websocket.Conn, 8), reasons: map[string]int{}}
	if p.greet == nil {
		p.greet = greetLikeTheAPI
	}
	up := websocket.Upgrader{}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer ws.Close()
		if !p.greet(ws) {
			return
		}
		p.live <- ws
		p.listen(ws)
	}))
	t.Cleanup(p.srv.Close)
	return p
}

// greetLikeTheAPI is the real handshake: session.created, the client's
// session.update, session.updated.
func greetLikeTheAPI(ws *websocket.Conn) bool {
	if ws.WriteMessage(websocket.TextMessage, []byte(`{"type":"session.created","session":{}}`)) != nil {
		return false
	}
	for {
		_, raw, err := ws.ReadMessage()
		if err != nil {
			return false
		}
		var ev struct{ Type string }
		if json.Unmarshal(raw, &ev) == nil && ev.Type == "session.update" {
			break
		}
	}
	return ws.WriteMessage(websocket.TextMessage, []byte(`{"type":"session.updated","session":{}}`)) == nil
}

// listen reads the client's events until it goes, counting tool call answers.
func (p *hostilePeer) listen(ws *websocket.Conn) {
	for {
		_, raw, err := ws.ReadMessage()
		if err != nil {
			return
		}
		var ev struct {
			Item struct{ Type, Output string }
		}
		if json.Unmarshal(raw, &ev) != nil || ev.Item.Type != "function_call_output" {
			continue
		}
		var out struct{ Reason string }
		_ = json.Unmarshal([]byte(ev.Item.Output), &out)
		p.mu.Lock()
		p.reasons[out.Reason]++
		p.answers++
		p.longest = max(p.longest, len(ev.Item.Output))
		p.mu.Unlock()
	}
}

// next is the next connection that finished its handshake.
func (p *hostilePeer) next() *websocket.Conn {
	p.t.Helper()
	select {
	case ws := <-p.live:
		return ws
	case <-time.After(5 * time.Second):
		p.t.Fatal("no connection reached the hostile peer")
		return nil
	}
}

func (p *hostilePeer) answered() (int, map[string]int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := map[string]int{}
	for k, v := range p.reasons {
		out[k] = v
	}
	return p.answers, out
}

// manager is a Manager whose interviewer's server is the peer.
func (p *hostilePeer) manager(sink Sink, units Units) *Manager {
	m := NewManager(Options{
		Config: Config{BaseURL: p.srv.URL + "/v1", Model: DefaultModel, Voice: DefaultVoice},
		Keys:   Keys{Getenv: func(string) string { return "" }, Keychain: &memKeychain{key: "sk-test-right"}},
		Sink:   sink, Screen: stillScreen{}, Units: units, DataDir: p.t.TempDir(),
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	p.t.Cleanup(m.StopAll)
	return m
}

// send writes one server event.
func send(t *testing.T, ws *websocket.Conn, ev any) {
	t.Helper()
	raw, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	if err := ws.WriteMessage(websocket.TextMessage, raw); err != nil {
		t.Fatal(err)
	}
}

// toolCall is a response.function_call_arguments.done event.
func toolCall(callID, name, arguments string) map[string]any {
	return map[string]any{"type": "response.function_call_arguments.done", "response_id": "resp_1",
		"item_id": "item_" + callID, "output_index": 0, "call_id": callID, "name": name, "arguments": arguments}
}

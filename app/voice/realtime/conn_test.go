package realtime

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"fixthis/internal/eventually"
	"fixthis/internal/realtimefake"
)

const testUpdate = `{"type":"session.update","session":{"type":"realtime","instructions":"test"}}`

// tape is a Handler that keeps what it heard.
type tape struct {
	mu     sync.Mutex
	status []Status
	events []string
	opened []int
	seed   func(n int, replaced bool) [][]byte
}

func (t *tape) Opened(n int, replaced bool) [][]byte {
	t.mu.Lock()
	t.opened = append(t.opened, n)
	t.mu.Unlock()
	if t.seed != nil {
		return t.seed(n, replaced)
	}
	return nil
}
func (t *tape) Event(ev Event) { t.mu.Lock(); t.events = append(t.events, ev.Type); t.mu.Unlock() }
func (t *tape) Status(s Status) {
	t.mu.Lock()
	t.status = append(t.status, s)
	t.mu.Unlock()
}

func (t *tape) phases() []Phase {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []Phase
	for _, s := range t.status {
		out = append(out, s.Phase)
	}
	return out
}

func (t *tape) last() Status {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.status) == 0 {
		return Status{Phase: -1}
	}
	return t.status[len(t.status)-1]
}

func fakeServer(t *testing.T, cfg realtimefake.Config) (*realtimefake.Server, string) {
	t.Helper()
	fake := realtimefake.New(cfg)
	srv := httptest.NewServer(fake.Handler())
	t.Cleanup(srv.Close)
	return fake, "ws" + strings.TrimPrefix(srv.URL, "http") + "/v1/realtime?model=gpt-realtime"
}

func open(t *testing.T, url, key string, h Handler) *Conn {
	t.Helper()
	c := Open(context.Background(), Options{URL: url, Key: key, Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Setup: func() ([]byte, error) { return []byte(testUpdate), nil }}, h)
	t.Cleanup(c.Close)
	return c
}

// liveConn opens a connection that reports to h, on a fresh fake that takes any
// key, and waits for it to go live.
func liveConn(t *testing.T, h *tape) (*realtimefake.Server, *Conn) {
	t.Helper()
	fake, url := fakeServer(t, realtimefake.Config{})
	c := open(t, url, "sk-any", h)
	eventually.True(t, 5*time.Second, "live", func() bool { return c.Number() == 1 })
	return fake, c
}

func receivedTypes(fake *realtimefake.Server, conn int) []string {
	var out []string
	for _, r := range fake.ReceivedEvents() {
		if conn == 0 || r.Conn == conn {
			out = append(out, r.Type)
		}
	}
	return out
}

func TestHandshakeGoesLiveAndCloseEnds(t *testing.T) {
	h := &tape{}
	fake, c := liveConn(t, h)
	if got := receivedTypes(fake, 1); strings.Join(got, ",") != "session.update" {
		t.Fatalf("the fake received %v", got)
	}
	if !c.Send([]byte(`{"type":"input_audio_buffer.clear"}`)) {
		t.Fatal("Send on a live connection failed")
	}
	began := time.Now()
	c.Close()
	if d := time.Since(began); d > time.Second {
		t.Fatalf("Close took %s", d)
	}
	<-c.Done()
	if got := h.phases(); len(got) != 3 || got[0] != Connecting || got[1] != Live || got[2] != Closed {
		t.Fatalf("phases %v", got)
	}
	if c.Send([]byte(`{}`)) || c.Number() != 0 {
		t.Fatal("Send after Close")
	}
}

func TestRefusedKeyFails(t *testing.T) {
	_, url := fakeServer(t, realtimefake.Config{Key: "sk-right"})
	h := &tape{}
	c := open(t, url, "sk-wrong-secret", h)
	<-c.Done()
	if s := h.last(); s.Phase != Failed || !errors.Is(s.Err, ErrKeyRefused) || strings.Contains(s.Err.Error(), "secret") {
		t.Fatalf("last status %+v", s)
	}
}

// Items wait while a response is active and go in order on response.done, then
// the response.create asked for meanwhile.
func TestItemsWaitForTheResponse(t *testing.T) {
	h := &tape{}
	fake, c := liveConn(t, h)
	// The server starts a response of its own (as after a turn it detected).
	fake.SendRaw([]byte(`{"type":"response.created","response":{"id":"resp_1","status":"in_progress"}}`))
	eventually.True(t, 5*time.Second, "an active response", c.Responding)
	note := func(s string) []byte {
		b, _ := json.Marshal(map[string]any{"type": "conversation.item.create", "item": map[string]any{
			"type": "message", "role": "system", "content": []any{map[string]any{"type": "input_text", "text": s}}}})
		return b
	}
	if !c.SendItem(note("one")) || !c.SendItem(note("two")) {
		t.Fatal("SendItem refused while responding")
	}
	c.RequestResponse()
	time.Sleep(50 * time.Millisecond)
	if n := len(receivedTypes(fake, 1)); n != 1 {
		t.Fatalf("sent during the response: %v", receivedTypes(fake, 1))
	}
	fake.SendRaw([]byte(`{"type":"response.done","response":{"id":"resp_1","status":"completed"}}`))
	eventually.True(t, 5*time.Second, "the held items and the deferred create", func() bool { return len(receivedTypes(fake, 1)) == 4 })
	want := "session.update,conversation.item.create,conversation.item.create,response.create"
	if got := strings.Join(receivedTypes(fake, 1), ","); got != want {
		t.Fatalf("order %s", got)
	}
	var texts []string
	for _, r := range fake.ReceivedEvents() {
		if r.Type == "conversation.item.create" {
			texts = append(texts, string(r.Event))
		}
	}
	if !strings.Contains(texts[0], `"one"`) || !strings.Contains(texts[1], `"two"`) {
		t.Fatalf("held items out of order: %v", texts)
	}
	// A response that never ends cannot make items pile up: past maxHeld, SendItem
	// refuses. First the response the deferred response.create started runs out.
	eventually.True(t, 5*time.Second, "the fake's own response to end", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return strings.Count(strings.Join(h.events, ","), "response.done") == 2
	})
	fake.SendRaw([]byte(`{"type":"response.created","response":{"id":"resp_2","status":"in_progress"}}`))
	eventually.True(t, 5*time.Second, "the second response", c.Responding)
	for i := range maxHeld {
		if !c.SendItem(note("held")) {
			t.Fatalf("item %d refused", i)
		}
	}
	if c.SendItem(note("one too many")) {
		t.Fatal("more than maxHeld items held")
	}
}

// A dropped connection is replaced; the handler's seed is the first thing on it.
func TestDropReconnectsAndSeedsFirst(t *testing.T) {
	h := &tape{seed: func(n int, replaced bool) [][]byte {
		if !replaced {
			return nil
		}
		return [][]byte{[]byte(`{"type":"conversation.item.create","item":{"type":"message","role":"system","content":[{"type":"input_text","text":"[RECONNECT]"}]}}`)}
	}}
	fake, c := liveConn(t, h)
	fake.Drop()
	eventually.True(t, 5*time.Second, "the second connection", func() bool { return c.Number() == 2 })
	eventually.True(t, 5*time.Second, "the seed", func() bool { return len(receivedTypes(fake, 2)) == 2 })
	if got := strings.Join(receivedTypes(fake, 2), ","); got != "session.update,conversation.item.create" {
		t.Fatalf("second connection got %s", got)
	}
	if got := h.phases(); len(got) != 4 || got[2] != Reconnecting || got[3] != Live {
		t.Fatalf("phases %v", got)
	}
}

// A frame over MaxEventBytes ends the connection rather than being read whole;
// a frame that is not strict text is delivered marked.
func TestOversizedFrameEndsTheConnection(t *testing.T) {
	h := &tape{}
	fake, c := liveConn(t, h)
	big := `{"type":"response.output_text.delta","delta":"` + strings.Repeat("a", MaxEventBytes) + `"}`
	fake.SendRaw([]byte(big))
	eventually.True(t, 5*time.Second, "the replacement", func() bool { return c.Number() == 2 })
	h.mu.Lock()
	n := len(h.events)
	h.mu.Unlock()
	if n != 0 {
		t.Fatalf("the oversized event was delivered: %d events", n)
	}
}

// A server that accepts the socket and then says nothing: Close ends the connect
// at once instead of waiting out the handshake.
func TestCloseCancelsASilentHandshake(t *testing.T) {
	_, url := fakeServer(t, realtimefake.Config{Silent: true})
	h := &tape{}
	c := open(t, url, "sk-any", h)
	time.Sleep(200 * time.Millisecond)
	if got := h.phases(); len(got) != 1 || got[0] != Connecting {
		t.Fatalf("phases while silent %v", got)
	}
	began := time.Now()
	c.Close()
	if d := time.Since(began); d > 500*time.Millisecond {
		t.Fatalf("Close took %s", d)
	}
	if s := h.last(); s.Phase != Closed {
		t.Fatalf("last status %+v", s)
	}
}

func TestConnectLimit(t *testing.T) {
	c := &Conn{}
	now := time.Now()
	for i := range maxConnects {
		c.connects = append(c.connects, now.Add(time.Duration(i-10)*time.Second))
	}
	if w := c.limitWait(now); w < 49*time.Second || w > 51*time.Second {
		t.Fatalf("the sixth connect in a minute waits %s, want about 50 s", w)
	}
	c.connects = c.connects[1:]
	if w := c.limitWait(now); w != 0 {
		t.Fatalf("four connects in a minute: wait %s", w)
	}
}

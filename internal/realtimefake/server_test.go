package realtimefake

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

type client struct {
	t  *testing.T
	ws *websocket.Conn
}

func dial(t *testing.T, srv *httptest.Server, key string) (*client, *http.Response, error) {
	t.Helper()
	h := http.Header{}
	if key != "" {
		h.Set("Authorization", "Bearer "+key)
	}
	ws, resp, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http")+"/v1/realtime?model=gpt-realtime", h)
	if err != nil {
		return nil, resp, err
	}
	t.Cleanup(func() { ws.Close() })
	return &client{t: t, ws: ws}, resp, nil
}

func (c *client) send(ev map[string]any) {
	c.t.Helper()
	if err := c.ws.WriteJSON(ev); err != nil {
		c.t.Fatal(err)
	}
}

// next reads events until one of type typ arrives, returning it and the types seen.
func (c *client) next(typ string) (map[string]any, []string) {
	c.t.Helper()
	var seen []string
	_ = c.ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		var ev map[string]any
		if err := c.ws.ReadJSON(&ev); err != nil {
			c.t.Fatalf("waiting for %s (seen %v): %v", typ, seen, err)
		}
		seen = append(seen, ev["type"].(string))
		if ev["type"] == typ {
			return ev, seen
		}
	}
}

// pcm makes ms of PCM16 at the given level (dBFS; <= -200 means digital silence).
func pcm(ms int, dbfs float64) []byte {
	n := ms * SampleRate / 1000
	buf := make([]byte, 2*n)
	amp := 32767 * math.Pow(10, dbfs/20) * math.Sqrt2
	for i := range n {
		v := amp * math.Sin(2*math.Pi*300*float64(i)/SampleRate)
		if dbfs <= -200 {
			v = 0
		}
		binary.LittleEndian.PutUint16(buf[2*i:], uint16(int16(v)))
	}
	return buf
}

func (c *client) appendAudio(b []byte) {
	for len(b) > 0 {
		n := min(len(b), 2*SampleRate/5) // 200 ms chunks
		c.send(map[string]any{"type": "input_audio_buffer.append", "audio": base64.StdEncoding.EncodeToString(b[:n])})
		b = b[n:]
	}
}

func TestAuthAndModel(t *testing.T) {
	srv := httptest.NewServer(New(Config{Key: "sk-right"}).Handler())
	defer srv.Close()
	for _, tc := range []struct {
		key  string
		want int
	}{{"", 401}, {"sk-wrong", 401}} {
		_, resp, err := dial(t, srv, tc.key)
		if err == nil || resp == nil || resp.StatusCode != tc.want {
			t.Fatalf("key %q: want HTTP %d, got %v %v", tc.key, tc.want, resp, err)
		}
		var body struct {
			Error struct{ Code, Message string }
		}
		_ = json.NewDecoder(resp.Body).Decode(&body)
		if body.Error.Code == "" || strings.Contains(body.Error.Message, "sk-wrong") {
			t.Fatalf("401 body %+v must carry a code and never the key", body)
		}
	}
	resp, err := http.Get(srv.URL + "/v1/realtime")
	if err != nil || resp.StatusCode != 401 {
		t.Fatalf("no key and no model: %v %v", resp, err)
	}
	c, _, err := dial(t, srv, "sk-right")
	if err != nil {
		t.Fatal(err)
	}
	ev, _ := c.next("session.created")
	sess := ev["session"].(map[string]any)
	if sess["type"] != "realtime" || sess["model"] != "gpt-realtime" || !strings.HasPrefix(ev["event_id"].(string), "event_") {
		t.Fatalf("session.created = %v", ev)
	}
}

func TestSessionUpdateMergesAndValidates(t *testing.T) {
	srv := httptest.NewServer(New(Config{}).Handler())
	defer srv.Close()
	c, _, _ := dial(t, srv, "k")
	c.next("session.created")
	c.send(map[string]any{"type": "session.update", "session": map[string]any{"instructions": "x"}})
	if ev, _ := c.next("error"); !strings.Contains(ev["error"].(map[string]any)["message"].(string), "session.type") {
		t.Fatalf("update without session.type: %v", ev)
	}
	c.send(map[string]any{"type": "session.update", "session": map[string]any{"type": "realtime", "voices": "x"}})
	if ev, _ := c.next("error"); ev["error"].(map[string]any)["code"] != "unknown_parameter" {
		t.Fatalf("unknown parameter: %v", ev)
	}
	c.send(map[string]any{"type": "session.update", "session": map[string]any{
		"type": "realtime", "instructions": "be terse",
		"tools": []any{map[string]any{"type": "function", "name": "look_at_screen",
			"parameters": map[string]any{"type": "object", "properties": map[string]any{}, "additionalProperties": false}}},
		"audio": map[string]any{"output": map[string]any{"voice": "marin"}},
	}})
	ev, _ := c.next("session.updated")
	s := ev["session"].(map[string]any)
	if s["instructions"] != "be terse" || dig(s, "audio", "output", "voice") != "marin" ||
		dig(s, "audio", "input", "format", "rate") != float64(SampleRate) || len(s["tools"].([]any)) != 1 {
		t.Fatalf("merged session = %v", s)
	}
}

func TestSpeechTurnRunsTheScript(t *testing.T) {
	script := Script{Turns: []Turn{{
		Transcript: "make this button blue",
		Responses: []Response{
			{ToolCalls: []ToolCall{{Name: "record_unit", Arguments: json.RawMessage(`{"statement":"blue","anchors":["anchor_0001"],"transcript_excerpt":"make this button blue"}`)}}},
			{Text: "Done.", AudioMs: 250},
		},
	}}}
	fake := New(Config{Script: script})
	srv := httptest.NewServer(fake.Handler())
	defer srv.Close()
	c, _, _ := dial(t, srv, "k")
	c.next("session.created")
	c.send(map[string]any{"type": "session.update", "session": map[string]any{"type": "realtime",
		"audio": map[string]any{"input": map[string]any{
			"transcription":  map[string]any{"model": "gpt-4o-mini-transcribe"},
			"turn_detection": map[string]any{"type": "server_vad", "silence_duration_ms": 400.0},
		}}}})
	c.next("session.updated")
	audio := append(append(pcm(1000, -300), pcm(1200, -20)...), pcm(1000, -300)...)
	c.appendAudio(audio)

	started, _ := c.next("input_audio_buffer.speech_started")
	if started["audio_start_ms"] != float64(1000-300) {
		t.Fatalf("speech_started = %v", started)
	}
	stopped, _ := c.next("input_audio_buffer.speech_stopped")
	if stopped["audio_end_ms"] != float64(2200+400) || stopped["item_id"] != started["item_id"] {
		t.Fatalf("speech_stopped = %v", stopped)
	}
	tr, seen := c.next("conversation.item.input_audio_transcription.completed")
	if tr["transcript"] != "make this button blue" || tr["item_id"] != started["item_id"] {
		t.Fatalf("transcription = %v", tr)
	}
	for _, want := range []string{"input_audio_buffer.committed", "conversation.item.added", "conversation.item.done"} {
		if !strings.Contains(strings.Join(seen, " "), want) {
			t.Fatalf("before the transcript: %v, missing %s", seen, want)
		}
	}
	call, _ := c.next("response.function_call_arguments.done")
	if call["name"] != "record_unit" || !strings.Contains(call["arguments"].(string), "anchor_0001") || call["call_id"] == "" {
		t.Fatalf("tool call = %v", call)
	}
	done, _ := c.next("response.done")
	if dig(done, "response", "status") != "completed" {
		t.Fatalf("response.done = %v", done)
	}

	// The tool result, then the follow-up response with spoken reply.
	c.send(map[string]any{"type": "conversation.item.create", "item": map[string]any{
		"type": "function_call_output", "call_id": call["call_id"], "output": `{"ok":true}`}})
	c.next("conversation.item.done")
	c.send(map[string]any{"type": "response.create"})
	delta, _ := c.next("response.output_audio.delta")
	if b, _ := base64.StdEncoding.DecodeString(delta["delta"].(string)); len(b) == 0 || rms(b) < 1000 {
		t.Fatalf("reply audio is empty or silent: %d bytes", len(b))
	}
	tdone, _ := c.next("response.output_audio_transcript.done")
	if tdone["transcript"] != "Done." {
		t.Fatalf("transcript.done = %v", tdone)
	}
	c.next("response.done")

	spans := fake.Speech()
	if len(spans) != 1 || spans[0].StartMs != 1000 || spans[0].EndMs != 2200 || spans[0].Open {
		t.Fatalf("speech spans = %+v", spans)
	}
	recv := fake.ReceivedEvents()
	var chunks, bytes int
	for _, r := range recv {
		if r.Type == "input_audio_buffer.append" {
			chunks++
			bytes += r.Audio.Bytes
			if strings.Contains(string(r.Event), "AAAA") {
				t.Fatalf("received log keeps audio: %s", r.Event)
			}
		}
	}
	if chunks != 16 || bytes != len(audio) {
		t.Fatalf("received %d chunks, %d bytes; want 16, %d", chunks, bytes, len(audio))
	}
	// The sent log names the tool call, so a client's latency can start at its send.
	var calls []Sent
	for _, e := range fake.SentEvents() {
		if e.Type == "response.function_call_arguments.done" {
			calls = append(calls, e)
		}
	}
	if len(calls) != 1 || calls[0].CallID != call["call_id"] || calls[0].Name != "record_unit" || calls[0].Arguments != call["arguments"] || calls[0].At.IsZero() {
		t.Fatalf("sent tool calls = %+v", calls)
	}
}

func TestItemsAreValidatedLikeTheAPI(t *testing.T) {
	srv := httptest.NewServer(New(Config{}).Handler())
	defer srv.Close()
	c, _, _ := dial(t, srv, "k")
	c.next("session.created")
	img := "data:image/jpeg;base64,/9j/4AAQ"
	cases := []struct {
		name string
		item map[string]any
		ok   bool
	}{
		{"system text", map[string]any{"type": "message", "role": "system", "content": []any{map[string]any{"type": "input_text", "text": "[PAGE] x"}}}, true},
		{"image on system", map[string]any{"type": "message", "role": "system", "content": []any{map[string]any{"type": "input_image", "image_url": img}}}, false},
		{"image on user", map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_image", "image_url": img}, map[string]any{"type": "input_text", "text": "caption"}}}, true},
		{"image not a data url", map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_image", "image_url": "http://x/y.jpg"}}}, false},
		{"output for an unknown call", map[string]any{"type": "function_call_output", "call_id": "call_nope", "output": "{}"}, false},
	}
	for _, tc := range cases {
		c.send(map[string]any{"type": "conversation.item.create", "item": tc.item})
		want := "conversation.item.done"
		if !tc.ok {
			want = "error"
		}
		ev, seen := c.next(want)
		if len(seen) != map[bool]int{true: 2, false: 1}[tc.ok] {
			t.Fatalf("%s: got %v, want %s", tc.name, seen, want)
		}
		if tc.ok && !strings.HasPrefix(dig(ev, "item", "id").(string), "item_") {
			t.Fatalf("%s: item without id: %v", tc.name, ev)
		}
	}
}

func TestOneActiveResponseAtATime(t *testing.T) {
	fake := New(Config{})
	srv := httptest.NewServer(fake.Handler())
	defer srv.Close()
	c, _, _ := dial(t, srv, "k")
	c.next("session.created")
	c.send(map[string]any{"type": "conversation.item.create", "item": map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": "hi"}}}})
	c.next("conversation.item.done")
	fake.cfg.Script = Script{}
	c.conns(fake)[0].pending = []Response{{Text: "long", HoldMs: 600}}
	c.send(map[string]any{"type": "response.create"})
	created, _ := c.next("response.created")
	c.send(map[string]any{"type": "response.create"})
	ev, _ := c.next("error")
	if ev["error"].(map[string]any)["code"] != "conversation_already_has_active_response" {
		t.Fatalf("second response.create: %v", ev)
	}
	c.send(map[string]any{"type": "response.cancel"})
	done, _ := c.next("response.done")
	if dig(done, "response", "status") != "cancelled" || dig(done, "response", "id") != dig(created, "response", "id") {
		t.Fatalf("cancelled response.done = %v", done)
	}
}

// conns returns the fake's live connections.
func (c *client) conns(s *Server) []*conn {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*conn
	for _, cn := range s.conns {
		out = append(out, cn)
	}
	return out
}

func TestDropAndInjectedError(t *testing.T) {
	fake := New(Config{})
	srv := httptest.NewServer(fake.Handler())
	defer srv.Close()
	c, _, _ := dial(t, srv, "k")
	c.next("session.created")
	resp, err := http.Post(srv.URL+"/_fake/error", "application/json", strings.NewReader(`{"code":"rate_limit_exceeded","message":"slow down"}`))
	if err != nil || resp.StatusCode != 200 {
		t.Fatal(resp, err)
	}
	if ev, _ := c.next("error"); dig(ev, "error", "message") != "slow down" {
		t.Fatalf("injected error = %v", ev)
	}
	if n := fake.Drop(); n != 1 {
		t.Fatalf("dropped %d connections", n)
	}
	_ = c.ws.SetReadDeadline(time.Now().Add(2 * time.Second))
	if _, _, err := c.ws.ReadMessage(); err == nil {
		t.Fatal("connection still open after drop")
	}
	if len(fake.Connects()) != 1 {
		t.Fatalf("connects = %d", len(fake.Connects()))
	}
}

// A silent fake accepts the socket and sends nothing, not even session.created.
func TestSilentSendsNothing(t *testing.T) {
	srv := httptest.NewServer(New(Config{Silent: true}).Handler())
	t.Cleanup(srv.Close)
	c, _, err := dial(t, srv, "sk-any")
	if err != nil {
		t.Fatal(err)
	}
	_ = c.ws.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	if _, raw, err := c.ws.ReadMessage(); err == nil {
		t.Fatalf("a silent fake sent %s", raw)
	}
}

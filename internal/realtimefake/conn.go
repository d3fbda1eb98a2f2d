package realtimefake

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// conn is one client connection: its session, its conversation and its audio.
type conn struct {
	srv   *Server
	id    int
	ws    *websocket.Conn
	wmu   sync.Mutex // one writer at a time
	event int

	mu       sync.Mutex
	session  map[string]any
	items    []string        // conversation item ids in order
	calls    map[string]bool // call_ids of function_call items
	vad      *vad
	bufBytes int             // audio appended since the last commit
	speechID string          // user item id of the speech in progress
	pending  []Response      // the current turn's responses still to run
	active   *activeResponse // the response in progress
	nextID   int
}

type activeResponse struct {
	id     string
	cancel chan struct{}
	done   chan struct{}
}

func newConn(s *Server, id int, ws *websocket.Conn, model string) *conn {
	c := &conn{srv: s, id: id, ws: ws, calls: map[string]bool{}, vad: newVAD(s.cfg.ThresholdDBFS, 500)}
	c.session = defaultSession(c.newID("sess"), model)
	return c
}

// newID mints an id with the API's prefixes (sess_, item_, resp_, call_, event_).
func (c *conn) newID(prefix string) string {
	c.nextID++
	return fmt.Sprintf("%s_fake%d%05d", prefix, c.id, c.nextID)
}

func defaultSession(id, model string) map[string]any {
	return map[string]any{
		"type": "realtime", "object": "realtime.session", "id": id, "model": model,
		"output_modalities": []any{"audio"}, "instructions": "", "tools": []any{},
		"tool_choice": "auto", "max_output_tokens": "inf", "tracing": nil, "prompt": nil,
		"expires_at": time.Now().Add(time.Hour).Unix(), "include": nil,
		"audio": map[string]any{
			"input": map[string]any{
				"format":          map[string]any{"type": "audio/pcm", "rate": float64(SampleRate)},
				"transcription":   nil,
				"noise_reduction": nil,
				"turn_detection": map[string]any{
					"type": "server_vad", "threshold": 0.5, "prefix_padding_ms": float64(300),
					"silence_duration_ms": float64(500), "idle_timeout_ms": nil,
					"create_response": true, "interrupt_response": true,
				},
			},
			"output": map[string]any{
				"format": map[string]any{"type": "audio/pcm", "rate": float64(SampleRate)},
				"voice":  "alloy", "speed": 1.0,
			},
		},
	}
}

// send writes one server event, adding its event_id.
func (c *conn) send(typ string, fields map[string]any) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.event++
	fields["type"] = typ
	fields["event_id"] = fmt.Sprintf("event_fake%d%06d", c.id, c.event)
	if c.ws.WriteJSON(fields) == nil {
		c.srv.sent.add(c.srv.start, c.id, typ, fields)
	}
}

func (c *conn) sendError(typ, code, msg, clientEventID string) {
	e := map[string]any{"type": typ, "code": code, "message": msg, "param": nil, "event_id": nil}
	if clientEventID != "" {
		e["event_id"] = clientEventID
	}
	c.send("error", map[string]any{"error": e})
}

func (c *conn) run() {
	defer c.ws.Close()
	c.mu.Lock()
	sess := c.session
	c.mu.Unlock()
	if !c.srv.cfg.Silent {
		c.send("session.created", map[string]any{"session": sess})
	}
	for {
		_, raw, err := c.ws.ReadMessage()
		if err != nil {
			c.stopResponse()
			return
		}
		c.handle(raw)
	}
}

func (c *conn) handle(raw []byte) {
	var ev map[string]any
	if err := json.Unmarshal(raw, &ev); err != nil {
		c.sendError("invalid_request_error", "invalid_json", "The server could not parse the event as JSON.", "")
		return
	}
	typ, _ := ev["type"].(string)
	clientID, _ := ev["event_id"].(string)
	rec := Received{Conn: c.id, At: time.Now(), Type: typ, Event: raw}
	if typ == "input_audio_buffer.append" {
		rec.Event = nil
	}
	switch typ {
	case "session.update":
		c.srv.record(rec)
		c.sessionUpdate(ev, clientID)
	case "input_audio_buffer.append":
		b64, _ := ev["audio"].(string)
		pcm, err := base64.StdEncoding.DecodeString(b64)
		if err != nil || len(pcm)%2 != 0 {
			c.srv.record(rec)
			c.sendError("invalid_request_error", "invalid_value", "Invalid 'audio'. Expected base64-encoded PCM16 audio.", clientID)
			return
		}
		c.mu.Lock()
		edges := c.appendAudio(pcm)
		summary := &AudioSummary{Bytes: len(pcm), Ms: float64(len(pcm)/2) * 1000 / SampleRate, RMS: rms(pcm), AudioMs: c.vad.audioMs()}
		c.mu.Unlock()
		rec.Audio = summary
		rec.Event, _ = json.Marshal(map[string]any{"type": typ, "event_id": ev["event_id"], "audio": fmt.Sprintf("<%d bytes>", len(pcm))})
		c.srv.record(rec)
		for _, e := range edges {
			c.speechEdge(e)
		}
	case "input_audio_buffer.commit":
		c.srv.record(rec)
		c.mu.Lock()
		n := c.bufBytes
		c.mu.Unlock()
		if n < 2*SampleRate/10 {
			c.sendError("invalid_request_error", "input_audio_buffer_commit_empty",
				"Error committing input audio buffer: buffer too small. Expected at least 100ms of audio.", clientID)
			return
		}
		c.commit(c.newLockedID("item"))
	case "input_audio_buffer.clear":
		c.srv.record(rec)
		c.mu.Lock()
		c.bufBytes = 0
		c.mu.Unlock()
		c.send("input_audio_buffer.cleared", map[string]any{})
	case "conversation.item.create":
		c.srv.record(rec)
		c.itemCreate(ev, clientID)
	case "response.create":
		c.srv.record(rec)
		c.mu.Lock()
		active := c.active
		var r Response
		if len(c.pending) > 0 {
			r, c.pending = c.pending[0], c.pending[1:]
		}
		c.mu.Unlock()
		if active != nil {
			c.sendError("invalid_request_error", "conversation_already_has_active_response",
				"Conversation already has an active response in progress: "+active.id+". Wait until the response is finished before creating a new one.", clientID)
			return
		}
		c.startResponse(r)
	case "response.cancel":
		c.srv.record(rec)
		if !c.cancelResponse() {
			c.sendError("invalid_request_error", "response_cancel_not_active",
				"Cancellation failed: no active response found.", clientID)
		}
	default:
		c.srv.record(rec)
		c.sendError("invalid_request_error", "invalid_value",
			fmt.Sprintf("Invalid value: '%s'. Supported values are: 'session.update', 'input_audio_buffer.append', 'input_audio_buffer.commit', 'input_audio_buffer.clear', 'conversation.item.create', 'conversation.item.truncate', 'conversation.item.delete', 'conversation.item.retrieve', 'response.create', and 'response.cancel'.", typ), clientID)
	}
}

func (c *conn) newLockedID(prefix string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.newID(prefix)
}

// appendAudio feeds the VAD when server turn detection is on. Called with c.mu held.
func (c *conn) appendAudio(pcm []byte) []vadEvent {
	c.bufBytes += len(pcm)
	td, _ := dig(c.session, "audio", "input", "turn_detection").(map[string]any)
	if td == nil {
		return nil
	}
	if ms, ok := td["silence_duration_ms"].(float64); ok {
		c.vad.setSilence(int(ms))
	}
	return c.vad.feed(pcm)
}

// speechEdge turns a VAD edge into the server's turn events and, at the end of a
// turn, the transcription and the scripted response.
func (c *conn) speechEdge(e vadEvent) {
	c.srv.speechEdge(c.id, e)
	c.mu.Lock()
	td, _ := dig(c.session, "audio", "input", "turn_detection").(map[string]any)
	pad, _ := td["prefix_padding_ms"].(float64)
	silence, _ := td["silence_duration_ms"].(float64)
	interrupt, _ := td["interrupt_response"].(bool)
	if e.started {
		c.speechID = c.newID("item")
		id := c.speechID
		c.mu.Unlock()
		c.send("input_audio_buffer.speech_started", map[string]any{
			"audio_start_ms": max(0, e.span.StartMs-int(pad)), "item_id": id})
		if interrupt {
			c.cancelResponse()
		}
		return
	}
	id := c.speechID
	c.mu.Unlock()
	c.send("input_audio_buffer.speech_stopped", map[string]any{
		"audio_end_ms": e.span.EndMs + int(silence), "item_id": id})
	c.commit(id)
}

// commit closes the input buffer into a user audio item, transcribes it from the
// script and, with create_response on, starts the turn's first response.
func (c *conn) commit(itemID string) {
	c.mu.Lock()
	prev := c.lastItem()
	c.items = append(c.items, itemID)
	ms := c.bufBytes / 2 * 1000 / SampleRate
	c.bufBytes = 0
	transcription := dig(c.session, "audio", "input", "transcription")
	td, _ := dig(c.session, "audio", "input", "turn_detection").(map[string]any)
	create, _ := td["create_response"].(bool)
	c.mu.Unlock()
	c.send("input_audio_buffer.committed", map[string]any{"previous_item_id": prev, "item_id": itemID})
	item := map[string]any{"id": itemID, "object": "realtime.item", "type": "message", "status": "completed",
		"role": "user", "content": []any{map[string]any{"type": "input_audio", "transcript": nil}}}
	c.send("conversation.item.added", map[string]any{"previous_item_id": prev, "item": item})
	c.send("conversation.item.done", map[string]any{"previous_item_id": prev, "item": item})
	turn, _ := c.srv.nextTurn()
	if transcription != nil {
		if turn.Transcript != "" {
			c.send("conversation.item.input_audio_transcription.delta", map[string]any{
				"item_id": itemID, "content_index": 0, "delta": turn.Transcript})
		}
		c.send("conversation.item.input_audio_transcription.completed", map[string]any{
			"item_id": itemID, "content_index": 0, "transcript": turn.Transcript,
			"usage": map[string]any{"type": "duration", "seconds": float64(ms) / 1000}})
	}
	if !create {
		return
	}
	var first Response
	c.mu.Lock()
	if len(turn.Responses) > 0 {
		first = turn.Responses[0]
		c.pending = append([]Response(nil), turn.Responses[1:]...)
	} else {
		c.pending = nil
	}
	busy := c.active != nil
	c.mu.Unlock()
	if !busy {
		c.startResponse(first)
	}
}

// lastItem is the id of the newest conversation item (nil when none). c.mu held.
func (c *conn) lastItem() any {
	if len(c.items) == 0 {
		return nil
	}
	return c.items[len(c.items)-1]
}

// dig walks nested JSON objects.
func dig(m map[string]any, keys ...string) any {
	var cur any = m
	for _, k := range keys {
		obj, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = obj[k]
	}
	return cur
}

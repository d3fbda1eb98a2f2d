// Package openaicheck decodes every event the fake Realtime server sends with the
// official openai-go client's types, to prove the fake speaks the API's shapes. It is
// its own module so openai-go (and what it pulls in) stays out of FixThis's go.sum:
// run it with `cd internal/realtimefake/openaicheck && go test`.
package openaicheck

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"fixthis/internal/realtimefake"

	"github.com/gorilla/websocket"
	"github.com/openai/openai-go/v3/packages/respjson"
	"github.com/openai/openai-go/v3/realtime"
)

func TestEveryServerEventDecodesWithOpenAIGo(t *testing.T) {
	script := realtimefake.Script{Turns: []realtimefake.Turn{{
		Transcript: "make this button blue",
		Responses: []realtimefake.Response{
			{ToolCalls: []realtimefake.ToolCall{{Name: "look_at_screen", Arguments: json.RawMessage(`{"reason":"asked"}`)}}},
			{Text: "Which blue?", AudioMs: 300},
		},
	}}}
	fake := realtimefake.New(realtimefake.Config{Script: script})
	srv := httptest.NewServer(fake.Handler())
	defer srv.Close()
	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http")+"/v1/realtime?model=gpt-realtime",
		http.Header{"Authorization": {"Bearer sk-test"}})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()

	var raws [][]byte
	read := func(until string) map[string]any {
		t.Helper()
		_ = ws.SetReadDeadline(time.Now().Add(5 * time.Second))
		for {
			_, raw, err := ws.ReadMessage()
			if err != nil {
				t.Fatalf("waiting for %s: %v", until, err)
			}
			raws = append(raws, raw)
			var ev map[string]any
			_ = json.Unmarshal(raw, &ev)
			if ev["type"] == until {
				return ev
			}
		}
	}
	send := func(v any) {
		if err := ws.WriteJSON(v); err != nil {
			t.Fatal(err)
		}
	}
	read("session.created")
	send(map[string]any{"type": "session.update", "session": map[string]any{"type": "realtime",
		"audio": map[string]any{"input": map[string]any{"transcription": map[string]any{"model": "gpt-4o-mini-transcribe"},
			"turn_detection": map[string]any{"type": "server_vad"}}}}})
	read("session.updated")
	loud := make([]byte, 2*24000)
	for i := 0; i+1 < len(loud); i += 2 {
		v := int16(9000)
		if (i/2/30)%2 == 0 {
			v = -9000
		}
		loud[i], loud[i+1] = byte(v), byte(v>>8)
	}
	for _, chunk := range [][]byte{make([]byte, 24000), loud, make([]byte, 48000)} {
		send(map[string]any{"type": "input_audio_buffer.append", "audio": base64.StdEncoding.EncodeToString(chunk)})
	}
	call := read("response.function_call_arguments.done")
	read("response.done")
	send(map[string]any{"type": "conversation.item.create", "item": map[string]any{"type": "message", "role": "user",
		"content": []any{map[string]any{"type": "input_image", "image_url": "data:image/jpeg;base64,/9j/"}, map[string]any{"type": "input_text", "text": "[PAGE] Screenshot"}}}})
	send(map[string]any{"type": "conversation.item.create", "item": map[string]any{"type": "function_call_output",
		"call_id": call["call_id"], "output": `{"ok":true}`}})
	send(map[string]any{"type": "response.create"})
	read("response.done")
	send(map[string]any{"type": "input_audio_buffer.commit"}) // empty: an error event
	read("error")

	seen := map[string]bool{}
	for _, raw := range raws {
		var u realtime.RealtimeServerEventUnion
		if err := json.Unmarshal(raw, &u); err != nil {
			t.Fatalf("openai-go cannot decode %s: %v", raw, err)
		}
		ev := u.AsAny()
		if ev == nil {
			t.Fatalf("openai-go knows no event %q", u.Type)
		}
		for _, p := range problems(u.Type, reflect.ValueOf(ev)) {
			t.Error(p)
		}
		seen[u.Type] = true
	}
	for _, want := range []string{"session.created", "session.updated", "input_audio_buffer.speech_started",
		"input_audio_buffer.speech_stopped", "input_audio_buffer.committed", "conversation.item.added", "conversation.item.done",
		"conversation.item.input_audio_transcription.completed", "response.created", "response.output_item.added",
		"response.output_item.done", "response.function_call_arguments.done", "response.output_audio.delta",
		"response.output_audio_transcript.done", "response.done", "rate_limits.updated", "error"} {
		if !seen[want] {
			t.Errorf("the fake never sent %s", want)
		}
	}
}

// problems lists a missing or mistyped required field, and any field the API does
// not have.
func problems(typ string, v reflect.Value) []string {
	var out []string
	meta := v.FieldByName("JSON")
	if !meta.IsValid() {
		return []string{typ + ": no JSON metadata"}
	}
	if extra := meta.FieldByName("ExtraFields"); extra.Len() > 0 {
		out = append(out, fmt.Sprintf("%s carries fields the API does not have: %v", typ, extra.MapKeys()))
	}
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if f.Tag.Get("api") != "required" {
			continue
		}
		field, ok := meta.FieldByName(f.Name).Interface().(respjson.Field)
		if !ok {
			continue
		}
		switch raw := field.Raw(); {
		case raw == "":
			out = append(out, fmt.Sprintf("%s lacks the required field %s", typ, f.Tag.Get("json")))
		case raw != "null" && !field.Valid():
			out = append(out, fmt.Sprintf("%s: field %s has the wrong type: %s", typ, f.Tag.Get("json"), raw))
		}
	}
	return out
}

// The check itself must catch a wrong shape.
func TestProblemsCatchesWrongShapes(t *testing.T) {
	for raw, want := range map[string]string{
		`{"type":"input_audio_buffer.speech_started","event_id":"e","item_id":"i"}`:                             "audio_start_ms",
		`{"type":"input_audio_buffer.speech_started","event_id":"e","item_id":"i","audio_start_ms":"x"}`:        "wrong type",
		`{"type":"input_audio_buffer.speech_started","event_id":"e","item_id":"i","audio_start_ms":1,"when":2}`: "does not have",
	} {
		var u realtime.RealtimeServerEventUnion
		if err := json.Unmarshal([]byte(raw), &u); err != nil {
			t.Fatal(err)
		}
		got := strings.Join(problems(u.Type, reflect.ValueOf(u.AsAny())), "; ")
		if !strings.Contains(got, want) {
			t.Errorf("%s: problems %q, want one about %s", raw, got, want)
		}
	}
}

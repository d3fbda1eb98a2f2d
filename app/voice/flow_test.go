package voice

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"fixthis/capture"
	"fixthis/internal/eventually"
	"fixthis/internal/realtimefake"
)

// speak sends one loud second between silences, so the fake runs its next turn.
func speak(iv *Interviewer) {
	quiet, loud := make([]byte, 4800*2), make([]byte, 4800*2)
	for i := 0; i+1 < len(loud); i += 2 {
		v := int16(9000)
		if (i/2/30)%2 == 0 {
			v = -9000
		}
		loud[i], loud[i+1] = byte(v), byte(v>>8)
	}
	for range 3 {
		iv.Audio(quiet)
	}
	for range 5 {
		iv.Audio(loud)
	}
	for range 4 {
		iv.Audio(quiet)
	}
}

func TestAnchorsBecomePageNotesHeldWhileResponding(t *testing.T) {
	script := realtimefake.Script{Turns: []realtimefake.Turn{{Transcript: "hello there",
		Responses: []realtimefake.Response{{Text: "Hi.", HoldMs: 400}}}}}
	h := newHarness(t, script, "")
	iv := h.start()
	save := capture.Node{UID: "n0.3", Role: "Button", Text: "Save", ResourceID: "com.example:id/save"}
	a1, err := iv.Announce(Pointing{Kind: AnchorClick, Mode: "annotate", Node: &save, Activity: ".Main"})
	if err != nil || a1.ID != "anchor_0001" {
		t.Fatalf("first anchor: %+v %v", a1, err)
	}
	again, _ := iv.Announce(Pointing{Kind: AnchorClick, Mode: "annotate", Node: &save, Activity: ".Main"})
	if again.ID != a1.ID {
		t.Fatalf("the same node within 1 s got %s", again.ID)
	}
	h.waitReceived("the first note", func(r []realtimefake.Received) bool {
		for _, e := range r {
			if strings.HasPrefix(itemText(e), "[PAGE] The user clicked Button") {
				return true
			}
		}
		return false
	})

	// While the scripted response is active, a new note waits for response.done.
	speak(iv)
	eventually.True(t, 5*time.Second, "an active response", func() bool {
		return iv.conn.Responding()
	})
	a2, err := iv.Announce(Pointing{Kind: AnchorScreen, Note: "too busy", Activity: ".Main"})
	if err != nil || a2.ID != "anchor_0002" {
		t.Fatalf("second anchor: %+v %v", a2, err)
	}
	h.waitReceived("the held note", func(r []realtimefake.Received) bool {
		for _, e := range r {
			if strings.Contains(itemText(e), "anchor_0002") {
				return true
			}
		}
		return false
	})
	var notes []string
	var sentAt time.Time
	for _, e := range h.received("conversation.item.create") {
		if strings.HasPrefix(itemText(e), "[PAGE]") {
			notes = append(notes, itemText(e))
			sentAt = e.At
		}
	}
	if len(notes) != 2 {
		t.Fatalf("notes: %v", notes)
	}
	if notes[1] != `[PAGE] The user added a screen note "too busy" on the whole screen (activity .Main) (anchor id: anchor_0002).` {
		t.Fatalf("second note: %s", notes[1])
	}
	// The response was held open 400 ms after it began; the note came after.
	var created time.Time
	for _, e := range h.fake.SentEvents() {
		if e.Type == "response.created" {
			created = e.At
		}
	}
	if sentAt.Sub(created) < 300*time.Millisecond {
		t.Fatalf("the note went %s after response.created: not held for the response", sentAt.Sub(created))
	}
	if got := iv.Anchors(); len(got) != 2 || got[0].Node.UID != "n0.3" {
		t.Fatalf("kept anchors: %+v", got)
	}
}

func TestLookAtScreenOrdering(t *testing.T) {
	script := realtimefake.Script{Turns: []realtimefake.Turn{{Transcript: "can you see my screen",
		Responses: []realtimefake.Response{
			{ToolCalls: []realtimefake.ToolCall{{Name: "look_at_screen", Arguments: json.RawMessage(`{"reason":"asked"}`)}}, HoldMs: 300},
			{Text: "Yes, I see it."},
		}}}}
	h := newHarness(t, script, "")
	iv := h.start()
	speak(iv)
	got := h.waitReceived("response.create", func(r []realtimefake.Received) bool {
		for _, e := range r {
			if e.Type == "response.create" {
				return true
			}
		}
		return false
	})
	var order []string
	var image, output map[string]any
	for _, e := range got {
		if e.Type != "conversation.item.create" && e.Type != "response.create" {
			continue
		}
		var ev struct{ Item map[string]any }
		_ = json.Unmarshal(e.Event, &ev)
		switch {
		case e.Type == "response.create":
			order = append(order, "response.create")
		case ev.Item["type"] == "function_call_output":
			order, output = append(order, "function_call_output"), ev.Item
		case ev.Item["role"] == "user":
			order, image = append(order, "image"), ev.Item
		}
	}
	if strings.Join(order, ",") != "image,function_call_output,response.create" {
		t.Fatalf("order: %v", order)
	}
	content := image["content"].([]any)
	if c0 := content[0].(map[string]any); c0["type"] != "input_image" || !strings.HasPrefix(c0["image_url"].(string), "data:image/jpeg;base64,") {
		t.Fatalf("image part: %v", c0)
	}
	caption := content[1].(map[string]any)["text"].(string)
	if !strings.HasPrefix(caption, "[PAGE] Screenshot of the phone's screen on .Main, captured just now (frame id: frame_0001).") {
		t.Fatalf("caption: %s", caption)
	}
	var res map[string]any
	_ = json.Unmarshal([]byte(output["output"].(string)), &res)
	if res["ok"] != true || res["frame_id"] != "frame_0001" || res["fresh"] != true || res["age_ms"] == nil {
		t.Fatalf("result: %v", res)
	}
	// response.create waited for the calling response's response.done (held 300 ms).
	var outAt, createAt time.Time
	for _, e := range got {
		if e.Type == "response.create" {
			createAt = e.At
		}
		if e.Type == "conversation.item.create" && strings.Contains(string(e.Event), "function_call_output") {
			outAt = e.At
		}
	}
	if createAt.Sub(outAt) < 150*time.Millisecond {
		t.Fatalf("response.create came %s after the output: not deferred to response.done", createAt.Sub(outAt))
	}
	eventually.True(t, 5*time.Second, "the reply", func() bool {
		h.sink.mu.Lock()
		defer h.sink.mu.Unlock()
		for _, tr := range h.sink.transcripts {
			if tr.Final && tr.Text == "Yes, I see it." {
				return true
			}
		}
		return false
	})
}

func TestLookWithoutFrameSaysSo(t *testing.T) {
	h := newHarness(t, realtimefake.Script{}, "")
	h.m.opts.Screen = stillScreen{err: errNoFrame}
	iv := h.start()
	res := iv.attachScreen()
	// What goes upstream names nothing of the machine or the phone: the error
	// (which carries the serial and a path) stays in the log.
	if res.OK || res.Reason != "no_frame" || res.Detail == "" {
		t.Fatalf("no frame: %+v", res)
	}
	for _, leak := range []string{"emulator-5554", "sim-1", "/home", "paused"} {
		if strings.Contains(res.Detail, leak) {
			t.Fatalf("the answer upstream names %q: %s", leak, res.Detail)
		}
	}
	iv.screen = stillScreen{}
	first := iv.attachScreen()
	second := iv.attachScreen()
	if !first.OK || !second.OK || second.FrameID != first.FrameID || *second.Fresh {
		t.Fatalf("two looks within 5 s: %+v then %+v", first, second)
	}
	h.waitReceived("the image", func(r []realtimefake.Received) bool { return len(h.received("conversation.item.create")) == 1 })
	time.Sleep(100 * time.Millisecond)
	if n := len(h.received("conversation.item.create")); n != 1 {
		t.Fatalf("%d images sent for two looks within 5 s", n)
	}
}

func TestReconnectReseedsAndRestartsAnchors(t *testing.T) {
	h := newHarness(t, realtimefake.Script{}, "")
	iv := h.start()
	if a, _ := iv.Announce(Pointing{Kind: AnchorScreen, Note: "one"}); a.ID != "anchor_0001" {
		t.Fatal(a.ID)
	}
	iv.finalLine(RoleRiffer, "item_1", "make the title bigger")
	h.fake.Drop()
	eventually.True(t, 5*time.Second, "the second connection", func() bool { return len(h.fake.Connects()) == 2 && iv.Doc().State == StateListening })
	got := h.waitReceived("the [RECONNECT] note", func(r []realtimefake.Received) bool {
		for _, e := range r {
			if e.Conn == 2 && strings.HasPrefix(itemText(e), "[RECONNECT]") {
				return true
			}
		}
		return false
	})
	var second []string
	for _, e := range got {
		if e.Conn == 2 {
			second = append(second, e.Type)
		}
	}
	if strings.Join(second, ",") != "session.update,conversation.item.create" {
		t.Fatalf("second connection got %v", second)
	}
	for _, e := range got {
		if e.Conn == 2 && e.Type == "conversation.item.create" && !strings.Contains(itemText(e), "riffer: make the title bigger") {
			t.Fatalf("the re-seed lacks the recent lines: %s", itemText(e))
		}
	}
	var states []State
	h.sink.mu.Lock()
	for _, s := range h.sink.states {
		states = append(states, s.State)
	}
	h.sink.mu.Unlock()
	if !strings.Contains(strings.Trim(strings.Join(strSlice(states), ","), ","), "listening,reconnecting,listening") {
		t.Fatalf("states: %v", states)
	}
	if a, _ := iv.Announce(Pointing{Kind: AnchorScreen, Note: "two"}); a.ID != "anchor_0001" || a.Conn != 2 {
		t.Fatalf("anchor on the new connection: %+v", a)
	}
}

func strSlice(s []State) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = string(v)
	}
	return out
}

package app

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"fixthis/app/store"
	"fixthis/app/talk"
	"fixthis/app/voice"
	"fixthis/internal/eventually"
	"fixthis/internal/realtimefake"

	mcpclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// call is one scripted tool call of the fake interviewer.
func call(name, args string) realtimefake.ToolCall {
	return realtimefake.ToolCall{Name: name, Arguments: json.RawMessage(args)}
}

// turn is one spoken turn whose first response makes calls.
func turn(transcript string, calls ...realtimefake.ToolCall) realtimefake.Turn {
	return realtimefake.Turn{Transcript: transcript, Responses: []realtimefake.Response{{ToolCalls: calls}}}
}

// speak posts one loud second between silences, so the fake runs its next turn.
func (e *voiceEnv) speak(voiceSessionID string) {
	e.t.Helper()
	quiet, loud := make([]byte, 4800), make([]byte, 4800)
	for i := 0; i+1 < len(loud); i += 2 {
		v := int16(9000)
		if (i/2/30)%2 == 0 {
			v = -9000
		}
		loud[i], loud[i+1] = byte(v), byte(v>>8)
	}
	var chunks [][]byte
	for range 3 {
		chunks = append(chunks, quiet)
	}
	for range 10 {
		chunks = append(chunks, loud)
	}
	for range 8 {
		chunks = append(chunks, quiet)
	}
	for _, c := range chunks {
		if r := e.postAudio(voiceSessionID, c); r.Status != 204 {
			e.t.Fatalf("audio: %d %s", r.Status, r.Body)
		}
	}
}

// callOutput is one function_call_output the fake received, decoded.
type callOutput struct {
	CallID string
	OK     bool   `json:"ok"`
	UnitID string `json:"unit_id"`
	Item   int    `json:"item"`
	Reason string `json:"reason"`
}

func (e *voiceEnv) outputs() []callOutput {
	var out []callOutput
	for _, r := range e.fake.ReceivedEvents() {
		var ev struct {
			Item struct{ Type, CallID, Output string } `json:"item"`
		}
		_ = json.Unmarshal(r.Event, &ev)
		if r.Type != "conversation.item.create" || ev.Item.Type != "function_call_output" {
			continue
		}
		var o callOutput
		_ = json.Unmarshal([]byte(ev.Item.Output), &o)
		o.CallID = ev.Item.CallID
		out = append(out, o)
	}
	return out
}

func (e *voiceEnv) waitOutputs(n int) []callOutput {
	e.t.Helper()
	eventually.True(e.t, 10*time.Second, "tool results at the fake", func() bool { return len(e.outputs()) >= n })
	return e.outputs()
}

func (e *voiceEnv) session(id string) *store.Session {
	e.t.Helper()
	sess, err := e.store.GetSession(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return sess
}

// startVoice starts Talk on a new session in mode and announces a click on the
// trail card of a freeze; it returns the ids and the card.
func (e *voiceEnv) startVoice(mode string) (sid, vid string, card freezeNode) {
	e.t.Helper()
	e.keys.key = fakeKey
	sid = e.newSession()
	var vs voice.Session
	e.do("POST", "/api/voice/sessions", map[string]any{"sessionId": sid, "spokenReplies": false, "mode": mode}, nil).decode(e.t, &vs)
	if string(vs.Mode) != mode {
		e.t.Fatalf("started in mode %q, want %q", vs.Mode, mode)
	}
	fr := e.freeze()
	card = fr.node(e.t, "trail_card_1")
	var a talk.VoiceAnchor
	e.mustJSON("POST", "/api/voice/sessions/"+vs.VoiceSessionID+"/anchors",
		map[string]any{"kind": "click", "mode": "annotate", "frozenId": fr.FrozenID, "nodeUid": card.UID}, &a)
	return sid, vs.VoiceSessionID, card
}

func TestVoiceUnitsBecomeItems(t *testing.T) {
	e := newVoiceEnv(t, realtimefake.Script{Turns: []realtimefake.Turn{
		turn("make this card blue and the title bigger",
			call("record_unit", `{"statement":"Make the card blue","anchors":["this"],"transcript_excerpt":"make this card blue"}`),
			call("record_unit", `{"statement":"Make the title bigger","anchors":[],"transcript_excerpt":"and the title bigger"}`)),
		turn("forget the title one", call("withdraw_unit", `{"unit_id":"unit_0002","reason":"took it back"}`)),
		turn("actually dark blue and round it",
			call("update_unit", `{"unit_id":"unit_0001","statement":"Make the card dark blue"}`),
			call("record_unit", `{"statement":"Round the corners","anchors":["anchor_0042"],"transcript_excerpt":"round it"}`),
			realtimefake.ToolCall{Name: "record_unit", CallID: "call_replayed", Arguments: json.RawMessage(`{"statement":"Add a shadow","anchors":["anchor_0001"],"transcript_excerpt":"and a shadow"}`)},
			realtimefake.ToolCall{Name: "record_unit", CallID: "call_replayed", Arguments: json.RawMessage(`{"statement":"Add a shadow","anchors":["anchor_0001"],"transcript_excerpt":"and a shadow"}`)},
			call("update_unit", `{"unit_id":"unit_0002","statement":"x"}`),
			call("relay_answer", `{"unit_id":"unit_0001","answer_text":"blue"}`),
			call("update_unit", `{"unit_id":"unit_0099","statement":"x"}`)),
		turn("one more", call("record_unit", `{"statement":"Make the map bigger","anchors":["here"],"transcript_excerpt":"one more"}`)),
	}})
	events := e.subscribe()
	sid, vid, card := e.startVoice("collect")
	e.speak(vid)

	// One sentence, two changes: two items, the first on the card, the second a
	// screen note; both stored before their results went back.
	outs := e.waitOutputs(2)
	if !outs[0].OK || outs[0].UnitID != "unit_0001" || outs[0].Item != 1 || !outs[1].OK || outs[1].UnitID != "unit_0002" || outs[1].Item != 2 {
		t.Fatalf("tool results: %+v", outs)
	}
	sess := e.session(sid)
	if len(sess.Items) != 2 {
		t.Fatalf("items: %+v", sess.Items)
	}
	first, second := sess.Items[0], sess.Items[1]
	if first.Target.Type != store.TargetNode || first.Target.NodeUID != card.UID || first.Comment != "Make the card blue" ||
		first.Target.Snapshot == nil || first.Target.Snapshot.TestTag != "trail_card_1" || len(first.Target.Ancestors) == 0 {
		t.Fatalf("first item: %+v", first)
	}
	if v := first.Voice; v == nil || v.VoiceSessionID != vid || v.UnitID != "unit_0001" || v.Excerpt != "make this card blue" ||
		!slices.Equal(v.Anchors, []string{"anchor_0001"}) || v.SpanEndMs < v.SpanStartMs || v.SpanEndMs <= 0 {
		t.Fatalf("first origin: %+v", first.Voice)
	}
	if second.Target.Type != store.TargetScreen || second.ScreenID == "" || second.Voice == nil || len(second.Voice.Anchors) != 0 {
		t.Fatalf("second item: %+v", second)
	}
	if first.Phase != store.PhaseDraft || first.CropURL == "" {
		t.Fatalf("collect mode keeps a draft with its crop: %+v", first)
	}
	ev := events.next(5*time.Second, "voice-unit", nil)
	if u := decodeEvent[voice.Unit](t, ev); u.Action != voice.UnitRecorded || u.ItemID != first.ItemID || u.SequenceNumber != 1 || u.Statement != "Make the card blue" {
		t.Fatalf("voice-unit: %+v", u)
	}

	// "forget the title one": the draft is gone.
	e.speak(vid)
	outs = e.waitOutputs(3)
	if !outs[2].OK || outs[2].UnitID != "unit_0002" {
		t.Fatalf("withdraw: %+v", outs[2])
	}
	if items := e.session(sid).Items; len(items) != 1 || items[0].ItemID != first.ItemID {
		t.Fatalf("after withdraw: %+v", items)
	}
	events.next(5*time.Second, "voice-unit", func(ev sseEvent) bool {
		return decodeEvent[voice.Unit](t, ev).Action == voice.UnitWithdrawn
	})

	// An update, an unknown anchor, a replayed call, a withdrawn unit, no question, an
	// unknown unit.
	e.speak(vid)
	outs = e.waitOutputs(10)[3:]
	want := []callOutput{{OK: true, UnitID: "unit_0001", Item: 1}, {UnitID: "unit_0003", Reason: "unknown_anchor"},
		{OK: true, UnitID: "unit_0004", Item: 3}, {OK: true, UnitID: "unit_0004", Item: 3},
		{UnitID: "unit_0002", Reason: "withdrawn"}, {UnitID: "unit_0001", Reason: "no_question"}, {UnitID: "unit_0099", Reason: "unknown_unit"}}
	for i, w := range want {
		o := outs[i]
		if o.OK != w.OK || o.UnitID != w.UnitID || o.Item != w.Item || o.Reason != w.Reason {
			t.Fatalf("result %d: %+v, want %+v", i, o, w)
		}
	}
	items := e.session(sid).Items
	if len(items) != 2 || items[0].Comment != "Make the card dark blue" || items[1].Comment != "Add a shadow" || items[1].Target.NodeUID != card.UID {
		t.Fatalf("after update and replay: %+v", items)
	}

	// Handed off, a unit can no longer change; closing the session ends Talk on it
	// (feedback's tests hold the refusal of a unit that reaches a closed session).
	e.mustJSON("POST", "/api/agent-handoffs", map[string]any{"sessionId": sid, "itemIds": []string{items[0].ItemID}}, nil)
	e.mustJSON("POST", "/api/sessions/"+sid+"/close", nil, nil)
	events.next(5*time.Second, "voice-state", func(ev sseEvent) bool { return strings.Contains(string(ev.Data), `"stopped"`) })
}

// agentClient is one MCP connection of a coding agent, in process.
type agentClient struct {
	t *testing.T
	c *mcpclient.Client
}

func (e *voiceEnv) agent() *agentClient {
	e.t.Helper()
	return &agentClient{t: e.t, c: inProcessAgent(e.t, e.testEnv, "voice-agent")}
}

// call runs a tool and returns its structured answer as JSON.
func (a *agentClient) call(name string, args map[string]any) string {
	a.t.Helper()
	var req mcpgo.CallToolRequest
	req.Params.Name, req.Params.Arguments = name, args
	out, err := a.c.CallTool(context.Background(), req)
	if err != nil {
		a.t.Fatalf("%s: %v", name, err)
	}
	b, _ := json.Marshal(out)
	if out.IsError {
		a.t.Fatalf("%s: %s", name, b)
	}
	return string(b)
}

// An agent's question on a voice item reaches the interviewer as an [ENDPOINT
// QUESTION] note; its relay_answer is the item's answer and the agent's wait
// returns it; a typed answer after it is refused.
func TestVoiceQuestionRelay(t *testing.T) {
	e := newVoiceEnv(t, realtimefake.Script{
		Turns: []realtimefake.Turn{turn("make this card blue",
			call("record_unit", `{"statement":"Make the card blue","anchors":["this"],"transcript_excerpt":"make this card blue"}`))},
		Notes: []realtimefake.Note{{Prefix: "[ENDPOINT QUESTION]", Responses: []realtimefake.Response{{
			ToolCalls: []realtimefake.ToolCall{call("relay_answer", `{"unit_id":"unit_0001","answer_text":"The brand blue, #1565C0"}`)}}}}},
	})
	events := e.subscribe()
	sid, vid, _ := e.startVoice("instant")
	e.speak(vid)
	var item store.Item
	eventually.True(t, 10*time.Second, "the unit handed off (instant)", func() bool {
		items := e.session(sid).Items
		if len(items) == 1 && items[0].Phase == store.PhaseSent {
			item = items[0]
			return true
		}
		return false
	})
	ag := e.agent()
	got := ag.call("fixthis_wait_for_feedback", map[string]any{"sessionId": sid, "timeoutSeconds": 5})
	if !strings.Contains(got, item.ItemID) || !strings.Contains(got, `said: \"make this card blue\"`) {
		t.Fatalf("the agent's wait: %s", got)
	}
	read := ag.call("fixthis_read_feedback", map[string]any{"sessionId": sid, "itemId": item.ItemID})
	if !strings.Contains(read, `"said":"make this card blue"`) {
		t.Fatalf("read_feedback has no excerpt: %s", read)
	}
	ag.call("fixthis_claim_feedback", map[string]any{"sessionId": sid, "itemId": item.ItemID})
	ag.call("fixthis_ask", map[string]any{"sessionId": sid, "itemId": item.ItemID, "question": "Which blue?"})

	q := events.next(10*time.Second, "voice-question", nil)
	if vq := decodeEvent[voice.Question](t, q); vq.UnitID != "unit_0001" || vq.ItemID != item.ItemID || vq.Question != "Which blue?" {
		t.Fatalf("voice-question: %+v", vq)
	}
	eventually.True(t, 10*time.Second, "the note at the fake", func() bool {
		for _, r := range e.fake.ReceivedEvents() {
			if strings.Contains(string(r.Event), `[ENDPOINT QUESTION] The coding agent asks about unit unit_0001: \"Which blue?\"`) {
				return true
			}
		}
		return false
	})
	outs := e.waitOutputs(2)
	if o := outs[1]; !o.OK || o.UnitID != "unit_0001" {
		t.Fatalf("relay_answer: %+v", o)
	}
	got = ag.call("fixthis_wait_for_feedback", map[string]any{"sessionId": sid, "timeoutSeconds": 5})
	if !strings.Contains(got, "The brand blue, #1565C0") {
		t.Fatalf("the agent's wait after the spoken answer: %s", got)
	}
	r := e.do("POST", "/api/items/"+item.ItemID+"/answer", map[string]any{"sessionId": sid, "answer": "Navy"}, nil)
	if r.Status != 409 || !strings.Contains(string(r.Body), "item_not_editable") {
		t.Fatalf("a typed answer second: %d %s", r.Status, r.Body)
	}
	if it := e.session(sid).Items[0]; it.UserAnswer != "The brand blue, #1565C0" {
		t.Fatalf("the answer kept: %q", it.UserAnswer)
	}
}

// A dropped socket mid-response loses no recorded unit: the item was stored before
// the result was sent, and after the reconnect unit ids go on where they were.
func TestVoiceUnitSurvivesADroppedSocket(t *testing.T) {
	e := newVoiceEnv(t, realtimefake.Script{Turns: []realtimefake.Turn{
		{Transcript: "make this card blue", Responses: []realtimefake.Response{{HoldMs: 3000, ToolCalls: []realtimefake.ToolCall{
			call("record_unit", `{"statement":"Make the card blue","anchors":["this"],"transcript_excerpt":"make this card blue"}`)}}}},
		turn("and the title bigger", call("record_unit", `{"statement":"Make the title bigger","anchors":[],"transcript_excerpt":"and the title bigger"}`)),
	}})
	events := e.subscribe()
	sid, vid, _ := e.startVoice("collect")
	e.speak(vid)
	events.next(10*time.Second, "voice-unit", nil)
	if n := e.fake.Drop(); n != 1 {
		t.Fatalf("dropped %d connections", n)
	}
	events.next(10*time.Second, "voice-state", func(ev sseEvent) bool { return strings.Contains(string(ev.Data), `"reconnecting"`) })
	events.next(15*time.Second, "voice-state", func(ev sseEvent) bool { return strings.Contains(string(ev.Data), `"listening"`) })
	if items := e.session(sid).Items; len(items) != 1 || items[0].Comment != "Make the card blue" {
		t.Fatalf("after the drop: %+v", items)
	}
	e.speak(vid)
	ev := events.next(10*time.Second, "voice-unit", nil)
	if u := decodeEvent[voice.Unit](t, ev); u.UnitID != "unit_0002" || u.SequenceNumber != 2 || u.Action != voice.UnitRecorded {
		t.Fatalf("the unit after the reconnect: %+v", u)
	}
}

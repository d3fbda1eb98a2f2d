package voice

import (
	"strings"
	"testing"
	"time"

	"fixthis/internal/realtimefake"
)

// The anchor rules of record_unit: ids of this connection, "this"/"here"/"that" for
// the newest anchor within 8 s, the riffer's own words resolving to nothing.
func TestResolveAnchors(t *testing.T) {
	now := time.Now()
	iv := &Interviewer{connN: 2}
	iv.anchors.anchors = []Anchor{
		{ID: "anchor_0001", Conn: 1, At: now.Add(-time.Second)},
		{ID: "anchor_0001", Conn: 2, At: now.Add(-20 * time.Second)},
		{ID: "anchor_0002", Conn: 2, At: now.Add(-3 * time.Second)},
	}
	ids := func(as []Anchor) (out []string) {
		for _, a := range as {
			out = append(out, a.ID)
		}
		return out
	}
	for _, tc := range []struct {
		refs   []string
		want   []string
		reason string
	}{
		{refs: []string{"this"}, want: []string{"anchor_0002"}},
		{refs: []string{"Here."}, want: []string{"anchor_0002"}},
		{refs: []string{"the blue button", "that", "anchor_0002"}, want: []string{"anchor_0002"}},
		{refs: []string{"anchor_0001", "this"}, want: []string{"anchor_0001", "anchor_0002"}},
		{refs: []string{"anchor_0003"}, reason: "unknown_anchor"},
		{refs: nil, want: nil},
	} {
		got, err := iv.resolve(tc.refs)
		if tc.reason != "" {
			if r, ok := err.(*Refusal); !ok || r.Reason != tc.reason {
				t.Errorf("%v: err %v, want %s", tc.refs, err, tc.reason)
			}
			continue
		}
		if err != nil || len(got) != len(tc.want) {
			t.Errorf("%v: %v %v, want %v", tc.refs, ids(got), err, tc.want)
			continue
		}
		for i := range got {
			if got[i].ID != tc.want[i] || got[i].Conn != 2 {
				t.Errorf("%v: %v (conn %d), want %v", tc.refs, ids(got), got[i].Conn, tc.want)
			}
		}
	}
	// The newest anchor older than 8 s: "this" resolves to nothing (a screen note).
	iv.anchors.anchors[2].At = now.Add(-9 * time.Second)
	if got, err := iv.resolve([]string{"this"}); err != nil || len(got) != 0 {
		t.Fatalf("a stale this: %v %v", ids(got), err)
	}
}

func TestUnitIDsAndQuestionNote(t *testing.T) {
	iv := &Interviewer{}
	iv.unitSt.init()
	a, b, again := iv.unitFor("call_1"), iv.unitFor("call_2"), iv.unitFor("call_1")
	if a != "unit_0001" || b != "unit_0002" || again != a {
		t.Fatalf("unit ids %s %s %s", a, b, again)
	}
	if err := iv.knownUnit("unit_0002"); err == nil {
		t.Fatal("no Units: a unit call must be refused")
	}
	if got := QuestionNote("unit_0002", "Which \"blue\"?\nThe brand one"); got != `[ENDPOINT QUESTION] The coding agent asks about unit unit_0002: "Which 'blue'? The brand one"` {
		t.Fatalf("note: %s", got)
	}
}

// A question waits while the riffer speaks and goes at the pause, with a
// response.create so the interviewer reads it out; the same question is sent once.
func TestQuestionWaitsForThePause(t *testing.T) {
	h := newHarness(t, realtimefake.Script{}, "")
	iv := h.start()
	iv.speechEdge(true)
	if !iv.AskQuestion("unit_0001", "item-1", "Which blue?") || iv.AskQuestion("unit_0001", "item-1", "Which blue?") {
		t.Fatal("a new question is queued once")
	}
	note := QuestionNote("unit_0001", "Which blue?")
	sent := func(r []realtimefake.Received) (notes, creates int) {
		for _, e := range r {
			if itemText(e) == note {
				notes++
			}
			if e.Type == "response.create" {
				creates++
			}
		}
		return notes, creates
	}
	// Something sent after the question proves the question was not: the fake logs
	// in order.
	iv.Announce(Pointing{Kind: AnchorScreen, Note: "marker"})
	h.waitReceived("the marker note", func(r []realtimefake.Received) bool {
		for _, e := range r {
			if strings.Contains(itemText(e), "marker") {
				return true
			}
		}
		return false
	})
	if n, c := sent(h.received()); n != 0 || c != 0 {
		t.Fatalf("sent while the riffer speaks: %d notes, %d response.create", n, c)
	}
	iv.speechEdge(false)
	h.waitReceived("the question and a response.create", func(r []realtimefake.Received) bool {
		n, c := sent(r)
		return n == 1 && c == 1
	})
	h.sink.mu.Lock()
	defer h.sink.mu.Unlock()
	if len(h.sink.questions) != 1 || h.sink.questions[0].ItemID != "item-1" {
		t.Fatalf("voice-question: %+v", h.sink.questions)
	}
}

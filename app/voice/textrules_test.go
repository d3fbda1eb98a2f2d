package voice

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"fixthis/app/errcode"
	"fixthis/internal/eventually"
	"fixthis/internal/realtimefake"

	"github.com/gorilla/websocket"
)

// memUnits is a Units that keeps what it was asked to record.
type memUnits struct {
	mu      sync.Mutex
	records []UnitRecord
}

func (u *memUnits) Record(ctx context.Context, r UnitRecord) (UnitItem, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.records = append(u.records, r)
	return UnitItem{ItemID: "item-" + r.UnitID, SequenceNumber: len(u.records), Statement: r.Statement, Excerpt: r.Excerpt}, nil
}
func (u *memUnits) Update(ctx context.Context, c UnitChange) (UnitItem, error) {
	return UnitItem{}, nil
}
func (u *memUnits) Withdraw(ctx context.Context, ref UnitRef) (UnitItem, error) {
	return UnitItem{}, nil
}
func (u *memUnits) Answer(ctx context.Context, ref UnitRef, answer string) (UnitItem, error) {
	return UnitItem{}, nil
}
func (u *memUnits) HandOff(ctx context.Context, ref UnitRef, itemIDs []string) error { return nil }

func (u *memUnits) count() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return len(u.records)
}

// The unit tools keep the console's text rule: a lone surrogate (in the arguments
// or in the frame around them), broken UTF-8, NUL or ESC is refused before
// anything is stored.
func TestToolArgumentsKeepTheTextRule(t *testing.T) {
	p := newHostilePeer(t, nil)
	units := &memUnits{}
	p.manager(&recorder{}, units).Start(StartRequest{Holder: "x", Mode: ModeCollect})
	ws := p.next()
	raw := func(frame string) {
		if err := ws.WriteMessage(websocket.TextMessage, []byte(frame)); err != nil {
			t.Fatal(err)
		}
	}
	send(t, ws, toolCall("c1", "record_unit", `{"statement":"make it \ud800 blue"}`))
	send(t, ws, toolCall("c2", "record_unit", `{"statement":"a\u0000b"}`))
	send(t, ws, toolCall("c3", "record_unit", `{"statement":"red \u001b[31m"}`))
	send(t, ws, toolCall("c4", "record_unit", `{"statement":"ok","transcript_excerpt":"\u0007"}`))
	send(t, ws, toolCall("c5", "update_unit", `{"unit_id":"unit_0001\u0000"}`))
	raw(`{"type":"response.function_call_arguments.done","call_id":"c6","name":"record_unit","arguments":"{\"statement\":\"a` + "\xff" + `b\"}"}`)
	raw(`{"type":"response.function_call_arguments.done","call_id":"c7","name":"record_unit","arguments":"{\"statement\":\"\udc00\"}"}`)
	send(t, ws, toolCall("c8", "record_unit", `{"statement":"make the 👍 button \"bigger\"\nplease"}`))
	eventually.True(t, 5*time.Second, "eight answers", func() bool { n, _ := p.answered(); return n == 8 })
	if _, reasons := p.answered(); reasons["invalid_text"] != 7 || reasons[""] != 1 {
		t.Fatalf("answers by reason: %v", reasons)
	}
	if units.count() != 1 || units.records[0].Statement != "make the 👍 button \"bigger\"\nplease" {
		t.Fatalf("recorded: %+v", units.records)
	}
}

// refusingUnits refuses every record with a detail quoting a megabyte.
type refusingUnits struct{ memUnits }

func (u *refusingUnits) Record(ctx context.Context, r UnitRecord) (UnitItem, error) {
	return UnitItem{}, Refuse("invalid", "the store refused %s", strings.Repeat("x", 1<<20))
}

// What goes back upstream for a refused unit is short, whatever the refusal says.
func TestRefusalDetailIsShortUpstream(t *testing.T) {
	p := newHostilePeer(t, nil)
	p.manager(&recorder{}, &refusingUnits{}).Start(StartRequest{Holder: "x", Mode: ModeCollect})
	send(t, p.next(), toolCall("c1", "record_unit", `{"statement":"make it blue"}`))
	eventually.True(t, 5*time.Second, "the answer", func() bool { n, _ := p.answered(); return n == 1 })
	if _, reasons := p.answered(); reasons["invalid"] != 1 || p.longest > 400 {
		t.Fatalf("answer %v of %d bytes", reasons, p.longest)
	}
}

// A screen note is counted in characters, and takes no control character; so is
// the holder's name.
func TestNoteAndHolderRules(t *testing.T) {
	h := newHarness(t, realtimefake.Script{}, "")
	if _, err := h.m.Start(StartRequest{Holder: "tab\x1b[2J"}); errcode.Of(err) != errcode.InvalidInput {
		t.Fatalf("a holder with ESC: %v", err)
	}
	if _, err := h.m.Start(StartRequest{Holder: strings.Repeat("ü", maxHolder+1)}); errcode.Of(err) != errcode.TooLarge {
		t.Fatalf("a long holder: %v", err)
	}
	iv, err := h.m.Start(StartRequest{Holder: strings.Repeat("ü", maxHolder)})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		note string
		want errcode.Code
	}{
		{strings.Repeat("é", maxNote), ""},
		{strings.Repeat("é", maxNote+1), errcode.TooLarge},
		{"a\x00b", errcode.InvalidInput},
		{"clear\x1b[2J", errcode.InvalidInput},
		{"bad \xff byte", errcode.InvalidInput},
		{"two\nlines", ""},
	} {
		_, err := iv.Announce(Pointing{Kind: AnchorScreen, Note: tc.note})
		if errcode.Of(err) != tc.want && !(tc.want == "" && err == nil) {
			t.Errorf("note of %d bytes: %v, want %s", len(tc.note), err, tc.want)
		}
		if err != nil && len(err.Error()) > 200 {
			t.Errorf("a %d-byte message", len(err.Error()))
		}
	}
}

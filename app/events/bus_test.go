package events

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

type frame struct {
	ID    string `json:"id"`
	Width int    `json:"width"`
}

var frameReady = Define[frame]("frame-ready")

func TestDefPublishesItsPayloadWithIncreasingIDs(t *testing.T) {
	b := NewBus(8)
	sub, replay, overflow := b.Subscribe(0)
	defer sub.Close()
	if replay != nil || overflow {
		t.Fatalf("fresh subscription replayed %v (overflow %v)", replay, overflow)
	}
	for i, want := range []struct {
		payload frame
		data    string
	}{
		{frame{ID: "a", Width: 1}, `{"id":"a","width":1}`},
		{frame{ID: "b"}, `{"id":"b","width":0}`},
	} {
		id := frameReady.Publish(b, want.payload)
		ev := <-sub.C
		if ev.ID != id || id != uint64(i+1) || ev.Type != "frame-ready" || string(ev.Data) != want.data {
			t.Errorf("event %d = {%d %s %s}, want {%d frame-ready %s}", i, ev.ID, ev.Type, ev.Data, i+1, want.data)
		}
	}
	if b.LastID() != 2 {
		t.Errorf("LastID = %d, want 2", b.LastID())
	}
}

func TestDefDescribesItself(t *testing.T) {
	var d Descriptor = frameReady
	if d.Type() != "frame-ready" || d.Payload() != reflect.TypeFor[frame]() {
		t.Fatalf("descriptor = %s %s", d.Type(), d.Payload())
	}
}

func TestUnencodablePayloadIsEmpty(t *testing.T) {
	if got := string(Define[float64]("x").Marshal(math.Inf(1))); got != `{}` {
		t.Fatalf("Marshal(+Inf) = %s, want {}", got)
	}
	if got := string(Define[Empty](ReplayOverflow).Marshal(Empty{})); got != `{}` {
		t.Fatalf("Marshal(Empty) = %s, want {}", got)
	}
}

func TestReplaySinceAndOverflow(t *testing.T) {
	b := NewBus(3)
	for i := 0; i < 5; i++ {
		frameReady.Publish(b, frame{Width: i})
	}
	checkReplays(t, b, []replayCase{
		{since: 0},
		{since: 5},
		{since: 3, ids: []uint64{4, 5}},
		{since: 2, ids: []uint64{3, 4, 5}},
		{since: 1, overflow: true},
	})
}

// replayCase is what a subscriber joining after since is replayed, and whether it
// is told it missed events.
type replayCase struct {
	since    uint64
	ids      []uint64
	overflow bool
}

func checkReplays(t *testing.T, b *Bus, cases []replayCase) {
	t.Helper()
	for _, tc := range cases {
		sub, replay, overflow := b.Subscribe(tc.since)
		sub.Close()
		var ids []uint64
		for _, ev := range replay {
			ids = append(ids, ev.ID)
		}
		if !reflect.DeepEqual(ids, tc.ids) || overflow != tc.overflow {
			t.Errorf("since %d: replay %v overflow %v, want %v %v", tc.since, ids, overflow, tc.ids, tc.overflow)
		}
	}
}

var audioChunk = DefineLive[frame]("audio-chunk")

// A live event reaches the subscribers of the moment, is never replayed, and neither
// evicts a kept event nor makes the gap it leaves look like an overflow.
func TestLiveEventsAreNotKeptForReplay(t *testing.T) {
	b := NewBus(3)
	sub, _, _ := b.Subscribe(0)
	defer sub.Close()
	frameReady.Publish(b, frame{ID: "kept-1"}) // 1
	for i := 0; i < 10; i++ {
		audioChunk.Publish(b, frame{ID: "live"}) // 2..11
	}
	frameReady.Publish(b, frame{ID: "kept-2"}) // 12
	if n := len(sub.C); n != 12 {
		t.Fatalf("the subscriber of the moment got %d events, want 12", n)
	}
	checkReplays(t, b, []replayCase{
		{since: 0},
		{since: 1, ids: []uint64{12}},
		{since: 5, ids: []uint64{12}},
		{since: 11, ids: []uint64{12}},
	})
}

func TestSlowSubscriberIsClosedNotWaitedFor(t *testing.T) {
	b := NewBus(1024)
	sub, _, _ := b.Subscribe(0)
	for i := 0; i < cap(sub.C)+1; i++ {
		frameReady.Publish(b, frame{Width: i})
	}
	n := 0
	for range sub.C {
		n++
	}
	if n != cap(sub.C) {
		t.Fatalf("slow subscriber got %d events before close, want %d", n, cap(sub.C))
	}
	sub.Close() // closing twice is harmless
}

var blobReady = Define[string]("blob-ready")

// The history holds at most historyBytes of data: large events evict the oldest,
// an event over maxReplayEvent is not kept at all, and a console that last saw
// an evicted event is told to resynchronise.
func TestHistoryIsBoundedInBytes(t *testing.T) {
	b := NewBus(2048)
	blob := strings.Repeat("x", maxReplayEvent-2) // with its quotes, just kept
	for range 10 {
		blobReady.Publish(b, blob)
	}
	if b.bytes > historyBytes {
		t.Fatalf("history holds %d bytes, over %d", b.bytes, historyBytes)
	}
	held := 0
	for _, ev := range b.history {
		held += len(ev.Data)
	}
	if held != b.bytes || len(b.history) != historyBytes/maxReplayEvent {
		t.Fatalf("history: %d events, %d bytes (counted %d)", len(b.history), held, b.bytes)
	}
	if _, _, overflow := b.Subscribe(1); !overflow {
		t.Fatal("a console that last saw an evicted event must resynchronise")
	}
	before := len(b.history)
	huge := blobReady.Publish(b, strings.Repeat("y", maxReplayEvent))
	if len(b.history) != before {
		t.Fatalf("an event over %d bytes was kept", maxReplayEvent)
	}
	small := blobReady.Publish(b, "z")
	_, replay, overflow := b.Subscribe(huge - 1)
	if !overflow || replay != nil {
		t.Fatalf("after an event over the bound: replay %d events, overflow %v", len(replay), overflow)
	}
	if _, replay, _ := b.Subscribe(huge); len(replay) != 1 || replay[0].ID != small {
		t.Fatalf("the event after it: %v", replay)
	}
}

package voice

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"fixthis/app/events"
	"fixthis/internal/eventually"

	"github.com/gorilla/websocket"
)

// busSink publishes on a bus as the app does, and counts the bytes the events
// carried: what the SSE streams would write.
type busSink struct {
	bus    *events.Bus
	bytes  atomic.Int64
	errors atomic.Int32
	lines  atomic.Int32
}

func count[T any](s *busSink, def events.Def[T], payload T) {
	raw, _ := json.Marshal(payload)
	s.bytes.Add(int64(len(raw)))
	def.Publish(s.bus, payload)
}

func (s *busSink) State(v Session)         { count(s, StateEvent, v) }
func (s *busSink) Transcript(v Transcript) { s.lines.Add(1); count(s, TranscriptEvent, v) }
func (s *busSink) Speech(v Speech)         { count(s, SpeechEvent, v) }
func (s *busSink) Audio(v Audio)           { count(s, AudioEvent, v) }
func (s *busSink) Error(v ErrorEvent)      { s.errors.Add(1); count(s, ErrorEventDef, v) }
func (s *busSink) Unit(v Unit)             { count(s, UnitEvent, v) }
func (s *busSink) Question(v Question)     { count(s, QuestionEvent, v) }

// heapPeak samples the heap in use until stop is closed.
func heapPeak(stop <-chan struct{}) <-chan uint64 {
	out := make(chan uint64, 1)
	go func() {
		var peak uint64
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-stop:
				out <- peak
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	return out
}

func heapAfterGC() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// The done-when of hostile input for the voice upstream: 200 tool calls of 1 MB,
// 2 MB of partial transcript and twenty 1 MB errors grow the heap by at most
// 150 MB while they arrive and leave next to nothing behind, and what the console
// is sent for them stays small.
func TestHostileUpstreamMemoryIsBounded(t *testing.T) {
	if testing.Short() || raceDetector {
		t.Skip("sends 222 MB over loopback; heap figures mean nothing under -race")
	}
	p := newHostilePeer(t, nil)
	sink := &busSink{bus: events.NewBus(2048)}
	units := &memUnits{}
	m := p.manager(sink, units)
	base := heapAfterGC()
	stop := make(chan struct{})
	peak := heapPeak(stop)
	iv, err := m.Start(StartRequest{Holder: "x"})
	if err != nil {
		t.Fatal(err)
	}
	ws := p.next()
	began := time.Now()
	write := func(frame []byte) {
		iv.Touch() // the console is there: a slow run must not end the session as left behind
		if err := ws.WriteMessage(websocket.TextMessage, frame); err != nil {
			t.Fatal(err)
		}
	}
	// One frame each, rewritten in place, so the peer itself holds little.
	call, _ := json.Marshal(toolCall("call_0000", "record_unit", `{"statement":"`+strings.Repeat("a", 1<<20)+`"}`))
	at := strings.Index(string(call), "call_0000")
	for i := range 200 {
		copy(call[at:], fmt.Sprintf("call_%04d", i))
		write(call)
	}
	for i := range 2048 { // 1 KB deltas on one item
		write([]byte(`{"type":"conversation.item.input_audio_transcription.delta","item_id":"item_1","delta":"` + fmt.Sprintf("%04d", i) + strings.Repeat("w", 1020) + `"}`))
	}
	errFrame, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]any{"type": "server_error", "code": "x", "message": strings.Repeat("e", 1<<20)}})
	for range 20 {
		write(errFrame)
	}
	eventually.True(t, 5*time.Second, "every call answered, every line and error published", func() bool {
		n, _ := p.answered()
		return n == 200 && sink.errors.Load() == 20 && sink.lines.Load() == 2048
	})
	close(stop)
	grew := int64(<-peak) - int64(base)
	left := int64(heapAfterGC()) - int64(base)
	_, reasons := p.answered()
	t.Logf("222 MB from a hostile upstream in %s: heap grew at most %.1f MB, %.1f MB left after GC; %.1f MB of events for the console; answers %v",
		time.Since(began).Round(time.Millisecond), float64(grew)/(1<<20), float64(left)/(1<<20), float64(sink.bytes.Load())/(1<<20), reasons)
	if grew > 150<<20 {
		t.Errorf("the heap grew %d MB, over 150 MB", grew>>20)
	}
	if left > 16<<20 {
		t.Errorf("%d MB left after GC", left>>20)
	}
	if sink.bytes.Load() > 16<<20 {
		t.Errorf("%d MB of events for the console", sink.bytes.Load()>>20)
	}
	if units.count() != 0 {
		t.Errorf("%d oversized units were stored", units.count())
	}
}

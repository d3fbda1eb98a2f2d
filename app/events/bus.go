// Package events is the console's event bus: typed events with increasing ids, a
// bounded history for Last-Event-ID replay, and fan-out to subscribers that never
// blocks a publisher. Across processes the store's change feed feeds it.
//
// Every event is published through its Def (def.go), which fixes its payload type.
// To add one: name it in types.go, declare its Def beside the payload type, list the
// Def in app/wire's contract and run `go generate ./app/wire` (README.md says more).
package events

import (
	"encoding/json"
	"sync"
	"time"
)

// Event is one typed message on the bus. ID increases by one per published event, so
// an SSE client's Last-Event-ID is enough to resume where it left off.
type Event struct {
	ID   uint64
	Type Type
	Data json.RawMessage
	At   time.Time
}

// Bus fans events out to subscribers (the console's SSE streams) and keeps a bounded
// history for replay. Slow subscribers never block publishers: their buffered channel
// overflows, they are closed, and they resume with Last-Event-ID.
type Bus struct {
	mu      sync.Mutex
	nextID  uint64
	history []Event // ring of the most recent events, oldest first
	limit   int
	bytes   int // the Data bytes history holds, at most historyBytes
	// evicted is the id of the newest event the ring has dropped: a client that
	// last saw an older one missed something and must resynchronise. Live events
	// (DefineLive) never enter the ring, so their ids leave gaps but evict nothing.
	evicted uint64
	subs    map[*Subscription]struct{}
}

// Subscription receives events published after it was made.
type Subscription struct {
	C      chan Event
	bus    *Bus
	closed bool
}

// historyBytes bounds the data the replay history holds, whatever the number of
// events: a burst of large events (an upstream's megabyte error, say) evicts the
// oldest ones, and a console that last saw one of those resynchronises, as after
// any overflow.
const historyBytes = 16 << 20

// maxReplayEvent is the largest event kept for replay. A larger one reaches the
// subscribers of the moment only; a console that reconnects from before it
// resynchronises instead of replaying, so nothing is lost and one large event
// does not push out the many small ones.
const maxReplayEvent = 4 << 20

// NewBus returns a bus that remembers the last historyLimit events for replay, at
// most historyBytes of their data and none over maxReplayEvent.
func NewBus(historyLimit int) *Bus {
	if historyLimit <= 0 {
		historyLimit = 1024
	}
	return &Bus{nextID: 1, limit: historyLimit, subs: map[*Subscription]struct{}{}}
}

// publish delivers an encoded event to every subscriber and returns its id, keeping
// it for replay when keep is set. Callers go through a Def, which fixes the payload
// type of each event.
func (b *Bus) publish(typ Type, raw json.RawMessage, keep bool) uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	ev := Event{ID: b.nextID, Type: typ, Data: raw, At: time.Now()}
	b.nextID++
	if keep {
		b.keep(ev)
	}
	for s := range b.subs {
		select {
		case s.C <- ev:
		default:
			// The subscriber fell behind: drop it rather than block everyone else.
			b.closeLocked(s)
		}
	}
	return ev.ID
}

// keep adds ev to the history and evicts the oldest events over either bound.
func (b *Bus) keep(ev Event) {
	if len(ev.Data) > maxReplayEvent {
		b.evicted = ev.ID
		return
	}
	b.history = append(b.history, ev)
	b.bytes += len(ev.Data)
	drop := 0
	for drop < len(b.history) && (len(b.history)-drop > b.limit || b.bytes > historyBytes) {
		b.bytes -= len(b.history[drop].Data)
		drop++
	}
	if drop == 0 {
		return
	}
	// An event not kept may be newer than the ones dropped here.
	b.evicted = max(b.evicted, b.history[drop-1].ID)
	b.history = append(b.history[:0:0], b.history[drop:]...)
}

// LastID is the id of the most recent event (0 when none).
func (b *Bus) LastID() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.nextID - 1
}

// Subscribe returns a subscription plus the events after sinceID still in history.
// overflow reports that events after sinceID were already dropped from history, so the
// caller must resynchronise from authoritative state instead of replaying.
func (b *Bus) Subscribe(sinceID uint64) (sub *Subscription, replay []Event, overflow bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	sub = &Subscription{C: make(chan Event, 256), bus: b}
	b.subs[sub] = struct{}{}
	if sinceID == 0 || sinceID >= b.nextID-1 {
		return sub, nil, false
	}
	if sinceID < b.evicted {
		return sub, nil, true
	}
	for _, ev := range b.history {
		if ev.ID > sinceID {
			replay = append(replay, ev)
		}
	}
	return sub, replay, false
}

// Close ends the subscription; its channel is closed.
func (s *Subscription) Close() {
	s.bus.mu.Lock()
	defer s.bus.mu.Unlock()
	s.bus.closeLocked(s)
}

func (b *Bus) closeLocked(s *Subscription) {
	if s.closed {
		return
	}
	s.closed = true
	delete(b.subs, s)
	close(s.C)
}

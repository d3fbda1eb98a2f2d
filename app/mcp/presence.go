package mcp

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"fixthis/app/store"
)

// presenceTracker turns what the agent does into the presence the console
// shows: listening while a wait is parked, working after a batch was served
// or a tool was called, away when the last connection of this process ends
// or after store.PresenceWorkingSilence without a call. While the agent
// holds a claim on a live connection the store reports working whatever the
// row says (store.GetPresence).
// States are persisted in the store so a console in another process sees
// them; OnPresence tells this process at once.
type presenceTracker struct {
	store  *store.Store
	notify func(store.Presence)
	log    *slog.Logger

	mu     sync.Mutex
	parked map[string]int // session ("" = any) → parked waits
	timers map[string]*time.Timer
	state  map[string]store.PresenceState
}

func newPresenceTracker(s *store.Store, notify func(store.Presence), log *slog.Logger) *presenceTracker {
	return &presenceTracker{store: s, notify: notify, log: log, parked: map[string]int{}, timers: map[string]*time.Timer{}, state: map[string]store.PresenceState{}}
}

// heartbeatEvery keeps a parked wait's row fresh well inside the away window.
const heartbeatEvery = 5 * time.Second

func (p *presenceTracker) set(sessionID string, state store.PresenceState) {
	// Presence is advisory: it must not fail or delay the tool call, so it
	// is written with its own short deadline and errors are only logged.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	pr, err := p.store.SetPresence(ctx, sessionID, state)
	if err != nil {
		p.log.Warn("record agent presence", "session", sessionID, "state", state, "err", err)
		return
	}
	p.mu.Lock()
	changed := p.state[sessionID] != state
	p.state[sessionID] = state
	p.mu.Unlock()
	if changed && p.notify != nil {
		p.notify(*pr)
	}
}

// waitStarted: a wait parked for sessionID.
func (p *presenceTracker) waitStarted(sessionID string) {
	p.mu.Lock()
	p.parked[sessionID]++
	if t := p.timers[sessionID]; t != nil {
		t.Stop()
	}
	p.mu.Unlock()
	p.set(sessionID, store.PresenceListening)
}

// heartbeat refreshes a parked wait's presence row.
func (p *presenceTracker) heartbeat(sessionID string) { p.set(sessionID, store.PresenceListening) }

// waitEnded: served says whether it returned a batch (the agent now works).
func (p *presenceTracker) waitEnded(sessionID string, served bool) {
	p.mu.Lock()
	p.parked[sessionID]--
	idle := p.parked[sessionID] == 0
	p.mu.Unlock()
	if served {
		p.set(sessionID, store.PresenceWorking)
	}
	if idle {
		after := store.PresenceAwayAfter
		if served {
			after = store.PresenceWorkingSilence
		}
		p.armAway(sessionID, after)
	}
}

// connectionEnded: an agent connection of this process closed; remaining
// are still open. With none left, nobody here is working any more.
func (p *presenceTracker) connectionEnded(remaining int) {
	if remaining > 0 {
		return
	}
	p.mu.Lock()
	var working []string
	for sid, st := range p.state {
		if st == store.PresenceWorking && p.parked[sid] == 0 {
			working = append(working, sid)
		}
	}
	p.mu.Unlock()
	for _, sid := range working {
		p.set(sid, store.PresenceAway)
	}
}

// activity: the agent called a tool on sessionID outside a wait.
func (p *presenceTracker) activity(sessionID string) {
	p.mu.Lock()
	parked := p.parked[sessionID] > 0 || p.parked[""] > 0
	p.mu.Unlock()
	if parked {
		return // a parked wait already says listening
	}
	p.set(sessionID, store.PresenceWorking)
	p.armAway(sessionID, store.PresenceWorkingSilence)
}

func (p *presenceTracker) armAway(sessionID string, after time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if t := p.timers[sessionID]; t != nil {
		t.Stop()
	}
	p.timers[sessionID] = time.AfterFunc(after, func() {
		p.mu.Lock()
		parked := p.parked[sessionID] > 0
		p.mu.Unlock()
		if !parked {
			p.set(sessionID, store.PresenceAway)
		}
	})
}

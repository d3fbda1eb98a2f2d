package app

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"fixthis/app/events"
	"fixthis/app/store"
)

// An agent that goes silent turns "away" with no commit to say so: the timeout watch
// re-reads the presence it last published and sends the change to the console, once.
func TestPresenceTimeoutIsPublished(t *testing.T) {
	ctx := context.Background()
	var now atomic.Int64
	now.Store(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).UnixNano())
	st, err := store.Open(ctx, t.TempDir(), store.Options{Now: func() time.Time { return time.Unix(0, now.Load()).UTC() }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	sess, err := st.CreateSession(ctx, "Presence")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.SetPresence(ctx, sess.SessionID, store.PresenceListening); err != nil {
		t.Fatal(err)
	}
	a := &App{store: st, bus: events.NewBus(64)}
	a.publishPresence(ctx, sess.SessionID) // what a commit does: the watch now knows the session
	sub, _, _ := a.bus.Subscribe(a.bus.LastID())
	defer sub.Close()

	now.Add(int64(store.PresenceAwayAfter + time.Second)) // the agent went silent
	watchCtx, stop := context.WithCancel(ctx)
	stopped := make(chan struct{})
	go func() { defer close(stopped); a.watchPresenceTimeouts(watchCtx) }()

	var seen []store.PresenceState
	deadline := time.After(10 * time.Second)
wait:
	for {
		select {
		case ev := <-sub.C:
			if ev.Type != events.AgentPresence {
				continue
			}
			var p store.Presence
			if err := json.Unmarshal(ev.Data, &p); err != nil {
				t.Fatalf("presence event %s: %v", ev.Data, err)
			}
			seen = append(seen, p.Presence)
			if p.Presence == store.PresenceAway {
				break wait
			}
		case <-deadline:
			t.Fatalf("no away presence within 10 s of the agent going silent; saw %v", seen)
		}
	}
	// Two more rounds of the watch: an agent still away is not announced again.
	again := time.After(2*presenceTimeoutEvery + 500*time.Millisecond)
more:
	for {
		select {
		case ev := <-sub.C:
			var p store.Presence
			if ev.Type == events.AgentPresence && json.Unmarshal(ev.Data, &p) == nil {
				seen = append(seen, p.Presence)
			}
		case <-again:
			break more
		}
	}
	if len(seen) != 1 || seen[0] != store.PresenceAway {
		t.Errorf("presence events %v, want the one change to away", seen)
	}
	stop()
	select {
	case <-stopped:
	case <-time.After(5 * time.Second):
		t.Fatal("the timeout watch did not end with its context")
	}
}

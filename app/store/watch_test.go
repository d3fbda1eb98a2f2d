package store

import (
	"context"
	"testing"
	"time"
)

// waitChange waits for a change of the given kind on ch.
func waitChange(t *testing.T, ch <-chan Change, sessionID, kind string, within time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	deadline := time.After(within)
	for {
		select {
		case c := <-ch:
			if c.SessionID == sessionID && c.Kind == kind {
				return time.Since(start)
			}
		case <-deadline:
			t.Fatalf("no %s change for %s within %s", kind, sessionID, within)
		}
	}
}

func watchChan(t *testing.T, s *Store) <-chan Change {
	ch := make(chan Change, 100)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	s.Watch(ctx, func(c Change) {
		select {
		case ch <- c:
		default:
		}
	})
	return ch
}

func TestWatchSeesOtherHandleWithin500ms(t *testing.T) {
	dir := t.TempDir()
	// Production poll interval, so the test measures the real latency.
	console := openWith(t, dir, Options{})
	agent := openWith(t, dir, Options{})

	sid, items := releasedItems(t, console, 1)
	consoleCh := watchChan(t, console)
	agentCh := watchChan(t, agent)

	mustOK(agent.Claim(context.Background(), sid, items[0].ItemID, ""))(t)
	if d := waitChange(t, consoleCh, sid, ChangeSession, 500*time.Millisecond); d > 500*time.Millisecond {
		t.Fatalf("claim seen after %s", d)
	}
	// Deleting the claimed item queues a withdrawal the agent's waiter sees.
	if err := console.DeleteItem(context.Background(), sid, items[0].ItemID); err != nil {
		t.Fatal(err)
	}
	waitChange(t, agentCh, sid, ChangeAgentBatch, 500*time.Millisecond)
}

func TestWatchOwnCommitsImmediately(t *testing.T) {
	// A poll interval far beyond the deadline proves the kick path works.
	s := openWith(t, t.TempDir(), Options{PollInterval: time.Hour})
	ch := watchChan(t, s)
	sess := mustSession(t, s)
	waitChange(t, ch, sess.SessionID, ChangeSession, 200*time.Millisecond)
	if err := s.DeleteSession(context.Background(), sess.SessionID); err != nil {
		t.Fatal(err)
	}
	waitChange(t, ch, sess.SessionID, ChangeSessionDeleted, 200*time.Millisecond)
}

func TestWatchStopsWithContext(t *testing.T) {
	s := newTestStore(t)
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan Change, 10)
	s.Watch(ctx, func(c Change) { got <- c })
	cancel()
	time.Sleep(50 * time.Millisecond)
	mustSession(t, s)
	time.Sleep(100 * time.Millisecond)
	if len(got) != 0 {
		t.Fatalf("cancelled watcher got %d changes", len(got))
	}
}

func TestPresence(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s := openWith(t, t.TempDir(), Options{Now: func() time.Time { return now }})
	if p := mustOK(s.GetPresence(ctx, "s1"))(t); p.Presence != PresenceNone {
		t.Fatalf("fresh presence %s", p.Presence)
	}
	mustOK(s.SetPresence(ctx, "", PresenceListening))(t)
	if p := mustOK(s.GetPresence(ctx, "s1"))(t); p.Presence != PresenceListening {
		t.Fatalf("any-session wait not applied: %s", p.Presence)
	}
	now = now.Add(10 * time.Second)
	mustOK(s.SetPresence(ctx, "", PresenceListening))(t) // heartbeat keeps since
	p := mustOK(s.GetPresence(ctx, "s1"))(t)
	if !p.Since.Equal(now.Add(-10*time.Second)) || !p.LastSeenAt.Equal(now) {
		t.Fatalf("heartbeat moved since: %+v", p)
	}
	now = now.Add(16 * time.Second)
	if p := mustOK(s.GetPresence(ctx, "s1"))(t); p.Presence != PresenceAway {
		t.Fatalf("stale listening is %s, want away", p.Presence)
	}
	if _, err := s.SetPresence(ctx, "s1", "sleeping"); err == nil {
		t.Fatal("bad state accepted")
	}
}

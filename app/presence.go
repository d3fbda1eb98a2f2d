package app

import (
	"context"
	"sync"
	"time"

	"fixthis/app/store"
	"fixthis/internal/tick"
)

// presenceWatch republishes the agent's presence for sessions the console has seen an
// agent on. Presence turns to "away" by the passage of time (no wait for 15 s), which
// no commit announces, so it is re-read every few seconds.
type presenceWatch struct {
	mu   sync.Mutex
	last map[string]store.PresenceState // sessionID → presence last published
}

func (a *App) getPresence(ctx context.Context, sessionID string) (*store.Presence, error) {
	return a.store.GetPresence(ctx, sessionID)
}

// publishPresence forwards a session's agent presence to the console. A commit said it
// changed, so it is published even when it reads the same as last time (a console may
// have fetched an older value meanwhile); the timeout watcher publishes only changes.
func (a *App) publishPresence(ctx context.Context, sessionID string) {
	a.publishPresenceIf(ctx, sessionID, false)
}

func (a *App) publishPresenceIf(ctx context.Context, sessionID string, onlyChanges bool) {
	p, err := a.getPresence(ctx, sessionID)
	if err != nil {
		return
	}
	a.presenceSeen.mu.Lock()
	if a.presenceSeen.last == nil {
		a.presenceSeen.last = map[string]store.PresenceState{}
	}
	changed := a.presenceSeen.last[sessionID] != p.Presence
	a.presenceSeen.last[sessionID] = p.Presence
	a.presenceSeen.mu.Unlock()
	if changed || !onlyChanges {
		AgentPresenceEvent.Publish(a.bus, *p)
	}
}

// presenceTimeoutEvery is how often the watch re-reads the presence it published.
const presenceTimeoutEvery = 2 * time.Second

// watchPresenceTimeouts notices agents going away without a commit saying so.
func (a *App) watchPresenceTimeouts(ctx context.Context) {
	tick.Every(ctx, presenceTimeoutEvery, func() {
		a.presenceSeen.mu.Lock()
		var ids []string
		for id, p := range a.presenceSeen.last {
			if p != store.PresenceAway && p != store.PresenceNone {
				ids = append(ids, id)
			}
		}
		a.presenceSeen.mu.Unlock()
		for _, id := range ids {
			a.publishPresenceIf(ctx, id, true)
		}
	})
}

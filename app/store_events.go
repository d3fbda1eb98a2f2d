package app

import (
	"context"
	"time"

	"fixthis/app/store"
)

// publishStoreChanges turns the store's change feed into console events. Commits made
// by this process and by others (the MCP sidecar, a second window) take the same path,
// so the console cannot tell them apart — and cannot miss either.
func (a *App) publishStoreChanges(ctx context.Context) {
	changes := make(chan store.Change, 256)
	a.store.Watch(ctx, func(c store.Change) {
		select {
		case changes <- c:
		default:
			// A burst larger than the buffer: the pending refetches already cover it.
		}
	})
	for {
		select {
		case <-ctx.Done():
			return
		case c := <-changes:
			// Coalesce a burst (a batch save touches a session several times) into one
			// refetch per session.
			pending := map[string]string{c.SessionID: c.Kind}
			timer := time.NewTimer(5 * time.Millisecond)
		drain:
			for {
				select {
				case c2 := <-changes:
					if prev, ok := pending[c2.SessionID]; !ok || prev != store.ChangeSessionDeleted {
						pending[c2.SessionID] = c2.Kind
					}
				case <-timer.C:
					break drain
				}
			}
			for sessionID, kind := range pending {
				a.publishSession(ctx, sessionID, kind)
			}
		}
	}
}

func (a *App) publishSession(ctx context.Context, sessionID, kind string) {
	if sessionID == "" {
		return
	}
	if kind == store.ChangePresence {
		a.publishPresence(ctx, sessionID)
		return
	}
	if kind == store.ChangeSessionDeleted {
		a.bus.Publish("sessions-updated", map[string]any{"sessionId": sessionID, "summary": nil, "deleted": true})
		return
	}
	sess, err := a.store.GetSession(ctx, sessionID)
	if err != nil {
		// Deleted between the change and the read.
		a.bus.Publish("sessions-updated", map[string]any{"sessionId": sessionID, "summary": nil, "deleted": true})
		return
	}
	a.bus.Publish("session-updated", map[string]any{"sessionId": sessionID, "session": sess})
	a.bus.Publish("sessions-updated", map[string]any{"sessionId": sessionID, "summary": sess.SessionSummary})
}

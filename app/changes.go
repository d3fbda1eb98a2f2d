package app

import (
	"context"
	"time"

	"fixthis/app/store"
	"fixthis/app/voice"
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
			// Coalesce a burst (a batch save touches a session several times; an agent's
			// claim commits the item and then its presence) into one refetch per session,
			// remembering every kind so no change is shadowed by a later one.
			pending := map[string]map[string]bool{c.SessionID: {c.Kind: true}}
			timer := time.NewTimer(5 * time.Millisecond)
		drain:
			for {
				select {
				case c2 := <-changes:
					if pending[c2.SessionID] == nil {
						pending[c2.SessionID] = map[string]bool{}
					}
					pending[c2.SessionID][c2.Kind] = true
				case <-timer.C:
					break drain
				}
			}
			for sessionID, kinds := range pending {
				a.publishSessionChanges(ctx, sessionID, kinds)
			}
		}
	}
}

// publishSessionChanges publishes what a burst of changes to one session means for
// the console: its content (or its deletion) and the agent's presence.
func (a *App) publishSessionChanges(ctx context.Context, sessionID string, kinds map[string]bool) {
	if sessionID == "" {
		// FixThis-wide changes: what agents did on devices, and the user's settings.
		if kinds[store.ChangeDeviceAction] {
			a.publishDeviceActions(ctx)
		}
		if kinds[store.ChangeSettings] {
			a.publishControl(ctx)
		}
		return
	}
	switch {
	case kinds[store.ChangeSessionDeleted]:
		a.publishSession(ctx, sessionID, store.ChangeSessionDeleted)
	case len(kinds) > 1 || !kinds[store.ChangePresence]:
		a.publishSession(ctx, sessionID, store.ChangeSession)
		a.askVoiceQuestions(ctx, sessionID)
	}
	if kinds[store.ChangePresence] {
		a.publishSession(ctx, sessionID, store.ChangePresence)
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
		stopTalkOn(a.voice, sessionID)
		SessionsUpdatedEvent.Publish(a.bus, SessionsUpdate{SessionID: sessionID, Deleted: true})
		return
	}
	sess, err := a.store.GetSession(ctx, sessionID)
	if err != nil {
		// Deleted between the change and the read.
		stopTalkOn(a.voice, sessionID)
		SessionsUpdatedEvent.Publish(a.bus, SessionsUpdate{SessionID: sessionID, Deleted: true})
		return
	}
	if sess.Status == store.SessionClosed {
		stopTalkOn(a.voice, sessionID)
	}
	SessionUpdatedEvent.Publish(a.bus, SessionUpdate{SessionID: sessionID, Session: sess})
	SessionsUpdatedEvent.Publish(a.bus, SessionsUpdate{SessionID: sessionID, Summary: &sess.SessionSummary})
}

// stopTalkOn stops the voice session talking about sessionID: a session that was
// closed or deleted (here, by the agent, or by another window) takes no more
// spoken feedback.
func stopTalkOn(m *voice.Manager, sessionID string) {
	if iv := m.Active(); iv != nil && iv.Doc().SessionID == sessionID {
		iv.Stop()
	}
}

// SessionUpdate is the payload of session-updated: one session in full.
type SessionUpdate struct {
	SessionID string         `json:"sessionId"`
	Session   *store.Session `json:"session"`
}

// SessionsUpdate is the payload of sessions-updated: a session's new summary, or
// Deleted with a nil summary.
type SessionsUpdate struct {
	SessionID string                `json:"sessionId"`
	Summary   *store.SessionSummary `json:"summary"`
	Deleted   bool                  `json:"deleted,omitempty"`
}

// askVoiceQuestions tells the live interviewer about agent questions on its units'
// items (the agent may ask from the MCP sidecar: the change feed brings it here).
func (a *App) askVoiceQuestions(ctx context.Context, sessionID string) {
	iv := a.voice.Active()
	if iv == nil || iv.Doc().SessionID != sessionID {
		return
	}
	sess, err := a.store.GetSession(ctx, sessionID)
	if err != nil {
		return
	}
	for _, it := range sess.Items {
		if it.Voice != nil && it.Voice.VoiceSessionID == iv.ID() && it.Status == store.StatusNeedsClarification && it.AgentQuestion != "" {
			iv.AskQuestion(it.Voice.UnitID, it.ItemID, it.AgentQuestion)
		}
	}
}

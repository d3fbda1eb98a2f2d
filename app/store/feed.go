package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// Change kinds in the change feed.
const (
	// ChangeSession: a session's content or summary changed.
	ChangeSession = "session"
	// ChangeSessionDeleted: a session and its items are gone.
	ChangeSessionDeleted = "session-deleted"
	// ChangeAgentBatch: a batch was queued for the agent (MCP waiters wake).
	ChangeAgentBatch = "agent-batch"
	// ChangePresence: the agent's presence for a session changed.
	ChangePresence = "agent"
	// ChangeSettings: a FixThis-wide setting changed (session "").
	ChangeSettings = "settings"
	// ChangeDeviceAction: an agent acted on a device (session "").
	ChangeDeviceAction = "device-action"
)

// Change is one row of the change feed: something about SessionID changed,
// committed by this or another process. Readers refetch what they need.
type Change struct {
	ID        int64     `json:"id"`
	SessionID string    `json:"sessionId"`
	Kind      string    `json:"kind"`
	At        time.Time `json:"at"`
}

// Event actors in the append-only log.
const (
	ActorUser   = "user"
	ActorAgent  = "agent"
	ActorSystem = "system"
)

// Event is one entry of a session's append-only history.
type Event struct {
	ID        int64           `json:"id"`
	SessionID string          `json:"sessionId"`
	ItemID    string          `json:"itemId,omitempty"`
	Actor     string          `json:"actor"`
	Kind      string          `json:"kind"`
	Payload   json.RawMessage `json:"payload"`
	At        time.Time       `json:"at"`
}

// change appends one change-feed row for this transaction (once per session
// and kind).
func (t *tx) change(ctx context.Context, sessionID, kind string) error {
	if _, err := t.ExecContext(ctx,
		`INSERT INTO changes(session_id, kind, at) VALUES (?, ?, ?)`,
		sessionID, kind, millis(t.now)); err != nil {
		return fmt.Errorf("append change: %w", err)
	}
	t.changed = true
	return nil
}

// event appends to the session's history.
func (t *tx) event(ctx context.Context, sessionID, itemID, actor, kind string, payload any) error {
	body := []byte("{}")
	if payload != nil {
		var err error
		if body, err = json.Marshal(payload); err != nil {
			return fmt.Errorf("encode %s event: %w", kind, err)
		}
	}
	if _, err := t.ExecContext(ctx,
		`INSERT INTO events(session_id, item_id, actor, kind, payload_json, at) VALUES (?, ?, ?, ?, ?, ?)`,
		sessionID, itemID, actor, kind, string(body), millis(t.now)); err != nil {
		return fmt.Errorf("append %s event: %w", kind, err)
	}
	return nil
}

// record finishes a mutation: the event-log entry and the session touch
// (bumpRevision for user-authored changes to items, which move the ETag).
func (t *tx) record(ctx context.Context, sessionID, itemID, actor, kind string, payload any, bumpRevision bool) error {
	if err := t.event(ctx, sessionID, itemID, actor, kind, payload); err != nil {
		return err
	}
	return t.touchSession(ctx, sessionID, bumpRevision)
}

// itemChanged finishes an item mutation (record) and returns the item as it
// now reads.
func (t *tx) itemChanged(ctx context.Context, sessionID, itemID, actor, kind string, payload any, bumpRevision bool) (Item, error) {
	if err := t.record(ctx, sessionID, itemID, actor, kind, payload, bumpRevision); err != nil {
		return Item{}, err
	}
	return getItem(ctx, t, sessionID, itemID)
}

// touchSession marks the session as changed: updated_at, optionally the
// revision (ETag), and one change-feed row.
func (t *tx) touchSession(ctx context.Context, sessionID string, bumpRevision bool) error {
	q := `UPDATE sessions SET updated_at = ? WHERE id = ?`
	if bumpRevision {
		q = `UPDATE sessions SET updated_at = ?, revision = revision + 1 WHERE id = ?`
	}
	if _, err := t.ExecContext(ctx, q, millis(t.now), sessionID); err != nil {
		return fmt.Errorf("touch session: %w", err)
	}
	return t.change(ctx, sessionID, ChangeSession)
}

// Events returns a session's history, oldest first, after the given id.
func (s *Store) Events(ctx context.Context, sessionID string, afterID int64) ([]Event, error) {
	rows, err := s.rdb.QueryContext(ctx,
		`SELECT id, session_id, item_id, actor, kind, payload_json, at FROM events
		 WHERE session_id = ? AND id > ? ORDER BY id`, sessionID, afterID)
	if err != nil {
		return nil, storageErr("reading events", err)
	}
	out, err := appendRows(nil, rows, scanEvent)
	if err != nil {
		return nil, storageErr("reading events", err)
	}
	return out, nil
}

func scanEvent(sc interface{ Scan(...any) error }) (Event, error) {
	var e Event
	var payload string
	var at int64
	err := sc.Scan(&e.ID, &e.SessionID, &e.ItemID, &e.Actor, &e.Kind, &payload, &at)
	e.Payload = json.RawMessage(payload)
	e.At = fromMillis(at)
	return e, err
}

// keepChanges is how many change-feed rows survive pruning: far more than any
// watcher falls behind between two 100 ms polls.
const keepChanges = 10000

func (s *Store) pruneChanges(ctx context.Context) error {
	return s.write(ctx, "pruning change feed", func(t *tx) error {
		_, err := t.ExecContext(ctx,
			`DELETE FROM changes WHERE id <= (SELECT COALESCE(MAX(id), 0) FROM changes) - ?`, keepChanges)
		return err
	})
}

package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"fixthis/app/errcode"
)

const maxTitleLen = 200

// CreateSession starts an open session (runtime evidence policy Auto).
func (s *Store) CreateSession(ctx context.Context, title string) (*Session, error) {
	title, err := cleanTitle(title)
	if err != nil {
		return nil, err
	}
	id := newID()
	return s.writeSession(ctx, "creating session", id, func(t *tx) error {
		if title == "" {
			title = "Feedback " + t.now.Local().Format("Jan 2 15:04")
		}
		if _, err := t.ExecContext(ctx, `INSERT INTO sessions(id, title, created_at, updated_at) VALUES (?, ?, ?, ?)`,
			id, title, millis(t.now), millis(t.now)); err != nil {
			return err
		}
		if err := t.event(ctx, id, "", ActorUser, "session-created", map[string]string{"title": title}); err != nil {
			return err
		}
		return t.change(ctx, id, ChangeSession)
	})
}

// writeSession runs fn in one write transaction and returns the session as it
// reads at the end of that transaction.
func (s *Store) writeSession(ctx context.Context, op, sessionID string, fn func(*tx) error) (*Session, error) {
	var out *Session
	err := s.write(ctx, op, func(t *tx) error {
		if err := fn(t); err != nil {
			return err
		}
		var err error
		out, err = loadSession(ctx, t, sessionID)
		return err
	})
	return out, err
}

func cleanTitle(title string) (string, error) {
	title = strings.TrimSpace(title)
	if err := checkText("title", title, maxTitleLen, false); err != nil {
		return "", err
	}
	return title, nil
}

// ListSessions returns every session, most recently changed first.
func (s *Store) ListSessions(ctx context.Context) ([]SessionSummary, error) {
	out := []SessionSummary{}
	err := s.read(ctx, "listing sessions", func(t *sql.Tx) error {
		rows, err := t.QueryContext(ctx, summarySelect+` ORDER BY s.updated_at DESC, s.created_at DESC`)
		if err != nil {
			return err
		}
		list, err := appendRows(nil, rows, scanSession)
		if err != nil {
			return err
		}
		counts, err := phaseCounts(ctx, t, "")
		if err != nil {
			return err
		}
		for _, r := range list {
			r.applyCounts(counts[r.SessionID])
			out = append(out, r.SessionSummary)
		}
		return nil
	})
	return out, err
}

// GetSessionSummary returns one session's summary.
func (s *Store) GetSessionSummary(ctx context.Context, sessionID string) (*SessionSummary, error) {
	var out *SessionSummary
	err := s.read(ctx, "reading session", func(t *sql.Tx) error {
		r, err := getSessionRow(ctx, t, sessionID)
		out = &r.SessionSummary
		return err
	})
	return out, err
}

// GetSession returns a session with its items (by sequence number), screens,
// handoffs and ETag.
func (s *Store) GetSession(ctx context.Context, sessionID string) (*Session, error) {
	var out *Session
	err := s.read(ctx, "reading session", func(t *sql.Tx) error {
		var err error
		out, err = loadSession(ctx, t, sessionID)
		return err
	})
	return out, err
}

func loadSession(ctx context.Context, q querier, sessionID string) (*Session, error) {
	r, err := getSessionRow(ctx, q, sessionID)
	if err != nil {
		return nil, err
	}
	sess := &Session{SessionSummary: r.SessionSummary, ETag: r.etag(), Screens: []Screen{}, Handoffs: []Handoff{}}
	if sess.AppBuild, err = loadAppBuild(ctx, q, sessionID); err != nil {
		return nil, err
	}
	if sess.Items, err = queryItems(ctx, q, `WHERE session_id = ? ORDER BY sequence_number`, sessionID); err != nil {
		return nil, err
	}
	rows, err := q.QueryContext(ctx, `SELECT `+screenColumns+` FROM screens WHERE session_id = ? ORDER BY created_at, id`, sessionID)
	if err != nil {
		return nil, fmt.Errorf("query screens: %w", err)
	}
	if sess.Screens, err = appendRows(sess.Screens, rows, scanScreen); err != nil {
		return nil, err
	}
	hrows, err := q.QueryContext(ctx, `SELECT id, session_id, kind, item_ids_json, agent_batch_id, created_at
		FROM handoffs WHERE session_id = ? ORDER BY created_at, id`, sessionID)
	if err != nil {
		return nil, fmt.Errorf("query handoffs: %w", err)
	}
	if sess.Handoffs, err = appendRows(sess.Handoffs, hrows, scanHandoff); err != nil {
		return nil, err
	}
	return sess, nil
}

func scanHandoff(sc interface{ Scan(...any) error }) (Handoff, error) {
	var h Handoff
	var ids string
	var created int64
	if err := sc.Scan(&h.HandoffID, &h.SessionID, &h.Kind, &ids, &h.BatchID, &created); err != nil {
		return h, err
	}
	if err := json.Unmarshal([]byte(ids), &h.ItemIDs); err != nil {
		return h, fmt.Errorf("decode handoff %s: %w", h.HandoffID, err)
	}
	h.CreatedAt = fromMillis(created)
	return h, nil
}

// SessionUpdate changes a session's title and/or runtime evidence policy;
// nil fields stay as they are.
type SessionUpdate struct {
	Title                 *string         `json:"title,omitempty"`
	RuntimeEvidencePolicy *EvidencePolicy `json:"runtimeEvidencePolicy,omitempty"`
	AgentPickup           *Pickup         `json:"agentPickup,omitempty"`
}

// UpdateSession applies u to an open session.
func (s *Store) UpdateSession(ctx context.Context, sessionID string, u SessionUpdate) (*Session, error) {
	var title string
	if u.Title != nil {
		var err error
		if title, err = cleanTitle(*u.Title); err != nil {
			return nil, err
		}
		if title == "" {
			return nil, invalid("title must not be empty")
		}
	}
	if p := u.RuntimeEvidencePolicy; p != nil && *p != PolicyAuto && *p != PolicyManual && *p != PolicyOff {
		return nil, invalid("runtimeEvidencePolicy must be auto, manual or off, not %s", echo(*p))
	}
	if p := u.AgentPickup; p != nil && *p != PickupBatch && *p != PickupInstant {
		return nil, invalid("agentPickup must be batch or instant, not %s", echo(*p))
	}
	return s.writeSession(ctx, "updating session", sessionID, func(t *tx) error {
		if _, err := openSessionForWrite(ctx, t, sessionID, "update the session"); err != nil {
			return err
		}
		if u.Title != nil {
			if _, err := t.ExecContext(ctx, `UPDATE sessions SET title = ? WHERE id = ?`, title, sessionID); err != nil {
				return err
			}
		}
		if u.RuntimeEvidencePolicy != nil {
			if _, err := t.ExecContext(ctx, `UPDATE sessions SET runtime_evidence_policy = ? WHERE id = ?`,
				*u.RuntimeEvidencePolicy, sessionID); err != nil {
				return err
			}
		}
		if u.AgentPickup != nil {
			if _, err := t.ExecContext(ctx, `UPDATE sessions SET agent_pickup = ? WHERE id = ?`, *u.AgentPickup, sessionID); err != nil {
				return err
			}
		}
		return t.record(ctx, sessionID, "", ActorUser, "session-updated", u, false)
	})
}

// CloseSession closes a session; afterwards every mutation but delete is
// refused with SESSION_CLOSED. Closing a closed session is a no-op.
func (s *Store) CloseSession(ctx context.Context, sessionID string) (*Session, error) {
	return s.writeSession(ctx, "closing session", sessionID, func(t *tx) error {
		r, err := getSessionRow(ctx, t, sessionID)
		if err != nil || r.Status == SessionClosed {
			return err
		}
		if _, err := t.ExecContext(ctx, `UPDATE sessions SET status = 'closed', closed_at = ? WHERE id = ?`,
			millis(t.now), sessionID); err != nil {
			return err
		}
		return t.record(ctx, sessionID, "", ActorUser, "session-closed", nil, false)
	})
}

// DeleteSession removes a session with its items, screens, handoffs and
// agent batches. Its event history stays; its artifacts become garbage.
func (s *Store) DeleteSession(ctx context.Context, sessionID string) error {
	return s.write(ctx, "deleting session", func(t *tx) error {
		res, err := t.ExecContext(ctx, `DELETE FROM sessions WHERE id = ?`, sessionID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errorf(errcode.SessionNotFound, "no session %s", echo(sessionID))
		}
		if err := t.event(ctx, sessionID, "", ActorUser, "session-deleted", nil); err != nil {
			return err
		}
		return t.change(ctx, sessionID, ChangeSessionDeleted)
	})
}

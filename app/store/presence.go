package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// PresenceAwayAfter is how long a listening row may go without a refresh:
// the MCP process refreshes it more often while a wait is parked, so a
// crashed MCP process turns away on its own.
const PresenceAwayAfter = 15 * time.Second

// PresenceWorkingSilence is the long silence after which an agent that was
// served a batch but holds no claim counts as away. An agent holding a claim
// on a live connection is working however long its edit takes.
const PresenceWorkingSilence = 5 * time.Minute

// Presence is the agent's state for a session ("" = waits on any session).
type Presence struct {
	SessionID  string        `json:"sessionId"`
	Presence   PresenceState `json:"presence"`
	Since      time.Time     `json:"since"`
	LastSeenAt time.Time     `json:"lastSeenAt"`
}

// SetPresence records the agent's state, persisted so the console process
// sees what the MCP process does. Repeating the same state only refreshes
// lastSeenAt (a heartbeat) and publishes no change.
func (s *Store) SetPresence(ctx context.Context, sessionID string, state PresenceState) (*Presence, error) {
	switch state {
	case PresenceListening, PresenceWorking, PresenceAway:
	default:
		return nil, invalid("presence must be listening, working or away, not %s", echo(state))
	}
	var out Presence
	err := s.write(ctx, "recording agent presence", func(t *tx) error {
		var cur PresenceState
		var since int64
		err := t.QueryRowContext(ctx, `SELECT state, since FROM agent_presence WHERE session_id = ?`, sessionID).Scan(&cur, &since)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if err != nil || cur != state {
			since = millis(t.now)
		}
		if _, err := t.ExecContext(ctx, `INSERT INTO agent_presence(session_id, state, since, last_seen_at) VALUES (?, ?, ?, ?)
			ON CONFLICT(session_id) DO UPDATE SET state = excluded.state, since = excluded.since, last_seen_at = excluded.last_seen_at`,
			sessionID, state, since, millis(t.now)); err != nil {
			return err
		}
		out = Presence{SessionID: sessionID, Presence: state, Since: fromMillis(since), LastSeenAt: t.now}
		if cur != state {
			return t.change(ctx, sessionID, ChangePresence)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// GetPresence returns the agent's presence for a session, taking a wait on
// "any session" into account, and turning a stale state into away.
func (s *Store) GetPresence(ctx context.Context, sessionID string) (*Presence, error) {
	rows, err := s.rdb.QueryContext(ctx, `SELECT session_id, state, since, last_seen_at FROM agent_presence
		WHERE session_id IN (?, '') ORDER BY last_seen_at DESC LIMIT 1`, sessionID)
	if err != nil {
		return nil, storageErr("reading agent presence", err)
	}
	defer rows.Close()
	p := &Presence{SessionID: sessionID, Presence: PresenceNone}
	if rows.Next() {
		var sid string
		var since, seen int64
		if err := rows.Scan(&sid, &p.Presence, &since, &seen); err != nil {
			return nil, storageErr("reading agent presence", err)
		}
		p.Since, p.LastSeenAt = fromMillis(since), fromMillis(seen)
		now := s.opts.Now()
		// Nobody refreshed the row for a while: the MCP process is gone or
		// the agent stopped calling tools.
		silence := PresenceAwayAfter
		if p.Presence == PresenceWorking {
			silence = PresenceWorkingSilence
		}
		if p.Presence != PresenceAway && now.Sub(p.LastSeenAt) > silence {
			p.Presence, p.Since = PresenceAway, p.LastSeenAt.Add(silence)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, storageErr("reading agent presence", err)
	}
	rows.Close()
	if p.Presence == PresenceListening {
		return p, nil
	}
	// A claim held on a live connection is work in progress, whatever the
	// row says.
	var claimed sql.NullInt64
	err = s.rdb.QueryRowContext(ctx, `SELECT MIN(i.claimed_at) FROM items i WHERE i.session_id = ? AND i.status = 'in_progress'
		AND EXISTS (SELECT 1 FROM agent_connections c WHERE c.id = i.claimed_by AND c.last_seen_at > ?)`,
		sessionID, liveCutoff(s.opts.Now())).Scan(&claimed)
	if err != nil {
		return nil, storageErr("reading agent presence", err)
	}
	if claimed.Valid {
		if p.Presence != PresenceWorking {
			p.Since = fromMillis(claimed.Int64)
		}
		p.Presence = PresenceWorking
	}
	return p, nil
}

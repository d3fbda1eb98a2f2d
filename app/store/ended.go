package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"fixthis/app/errcode"
)

// Reasons a session ended, as an agent's wait reports them.
const (
	EndedClosed  = "closed"
	EndedDeleted = "deleted"
)

// SessionEnded says whether a session has ended for the agent: "closed",
// "deleted" (its deletion is in the event log), or "" while it is open.
// An id that never named a session is SESSION_NOT_FOUND.
func (s *Store) SessionEnded(ctx context.Context, sessionID string) (string, error) {
	var status SessionStatus
	err := s.rdb.QueryRowContext(ctx, `SELECT status FROM sessions WHERE id = ?`, sessionID).Scan(&status)
	switch {
	case err == nil && status == SessionClosed:
		return EndedClosed, nil
	case err == nil:
		return "", nil
	case !errors.Is(err, sql.ErrNoRows):
		return "", storageErr("reading session", err)
	}
	var n int
	if err := s.rdb.QueryRowContext(ctx, `SELECT COUNT(*) FROM events WHERE session_id = ? AND kind = 'session-deleted'`,
		sessionID).Scan(&n); err != nil {
		return "", storageErr("reading session", err)
	}
	if n > 0 {
		return EndedDeleted, nil
	}
	return "", errorf(errcode.SessionNotFound, "no session %s", echo(sessionID))
}

// TouchConsole records that a console has an event stream open now.
func (s *Store) TouchConsole(ctx context.Context) error {
	return s.write(ctx, "recording console", func(t *tx) error {
		_, err := t.ExecContext(ctx, `INSERT INTO console_seen(id, last_seen_at) VALUES (1, ?)
			ON CONFLICT(id) DO UPDATE SET last_seen_at = excluded.last_seen_at`, millis(t.now))
		return err
	})
}

// ConsoleLastSeen is when a console last had an event stream open, or nil
// when none ever had.
func (s *Store) ConsoleLastSeen(ctx context.Context) (*time.Time, error) {
	var at sql.NullInt64
	err := s.rdb.QueryRowContext(ctx, `SELECT last_seen_at FROM console_seen WHERE id = 1`).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, storageErr("reading console", err)
	}
	return fromNullMillis(at), nil
}

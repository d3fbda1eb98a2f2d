package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// Wait leases keep "one parked wait per session" true across processes: the
// stdio sidecar of every agent and the app's /mcp endpoint all serve waits on
// the same database, and two waits that could be served the same batch must
// never be parked at once.
//
// The rule for the session key ("" = a wait on any session):
//
//   - a wait on session S conflicts with another wait on S and with a wait on
//     any session;
//   - a wait on any session conflicts with every other wait.
//
// A wait on any session is served the oldest batch of every session, so a
// wait on S parked beside it would be woken by, and served, the same batch
// of S: two agents would start on the same feedback. Waits on two different
// sessions can never see the same batch (a batch belongs to one session), so
// they never conflict. The price is that an agent waiting on any session
// excludes all per-session waits until it returns; the refusal is the
// explicit wait-taken answer, never a silent double serve.
//
// A lease is held until ReleaseWaitLease or until it expires; the owner
// renews it while the wait is parked. Every acquire first deletes expired
// leases, so a process that crashed with a wait parked blocks new waits for
// at most one TTL. Each call is one short write transaction, and writes are
// serialised across processes (BEGIN IMMEDIATE), so the check and the insert
// of an acquire cannot interleave with another process's acquire.

// WaitLease is one parked wait's claim on a session key.
type WaitLease struct {
	// SessionKey is the session id, or "" for a wait on any session.
	SessionKey string    `json:"sessionKey"`
	Owner      string    `json:"owner"`
	AcquiredAt time.Time `json:"acquiredAt"`
	ExpiresAt  time.Time `json:"expiresAt"`
}

// Bounds of a lease's inputs. A lease far longer than a wait would keep a
// crashed owner's session blocked for that long.
const (
	maxLeaseKeyLen = 200
	maxLeaseTTL    = 10 * time.Minute
)

func validLease(key, owner string, ttl time.Duration) error {
	switch {
	case owner == "" || len(owner) > maxLeaseKeyLen:
		return invalid("wait lease owner must be 1 to %d bytes", maxLeaseKeyLen)
	case len(key) > maxLeaseKeyLen:
		return invalid("wait lease session key longer than %d bytes", maxLeaseKeyLen)
	case ttl <= 0 || ttl > maxLeaseTTL:
		return invalid("wait lease TTL must be in (0, %s], not %s", maxLeaseTTL, ttl)
	}
	return nil
}

// AcquireWaitLease takes the lease on key ("" = any session) for owner until
// now+ttl. acquired is false when a live lease of another wait conflicts
// (see the rule above); holder is then that lease, otherwise the lease
// owner now holds. Acquiring again with the same owner and key extends it.
func (s *Store) AcquireWaitLease(ctx context.Context, key, owner string, ttl time.Duration) (acquired bool, holder *WaitLease, err error) {
	if err := validLease(key, owner, ttl); err != nil {
		return false, nil, err
	}
	err = s.write(ctx, "acquiring wait lease", func(t *tx) error {
		now := millis(t.now)
		if _, err := t.ExecContext(ctx, `DELETE FROM wait_leases WHERE expires_at <= ?`, now); err != nil {
			return err
		}
		var l WaitLease
		var at, exp int64
		// Ordered so a refusal names one holder deterministically: the wait on
		// this very key, else the oldest.
		err := t.QueryRowContext(ctx, `SELECT session_key, owner, acquired_at, expires_at FROM wait_leases
			WHERE NOT (session_key = ?1 AND owner = ?2) AND (?1 = '' OR session_key IN (?1, ''))
			ORDER BY session_key = ?1 DESC, acquired_at, session_key LIMIT 1`, key, owner).Scan(&l.SessionKey, &l.Owner, &at, &exp)
		switch {
		case err == nil:
			l.AcquiredAt, l.ExpiresAt = fromMillis(at), fromMillis(exp)
			holder = &l
			return nil
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		if err := t.QueryRowContext(ctx, `INSERT INTO wait_leases(session_key, owner, acquired_at, expires_at) VALUES (?, ?, ?, ?)
			ON CONFLICT(session_key) DO UPDATE SET expires_at = excluded.expires_at
			RETURNING acquired_at, expires_at`, key, owner, now, now+ttl.Milliseconds()).Scan(&at, &exp); err != nil {
			return err
		}
		acquired = true
		holder = &WaitLease{SessionKey: key, Owner: owner, AcquiredAt: fromMillis(at), ExpiresAt: fromMillis(exp)}
		return nil
	})
	if err != nil {
		return false, nil, err
	}
	return acquired, holder, nil
}

// RenewWaitLease extends owner's lease on key to now+ttl. held is false when
// the lease is gone: released, or expired and removed by another acquire.
// A lease that expired but that nobody removed yet is renewed: no acquire
// ran since it expired (each one deletes expired leases first), so no
// conflicting lease can have been granted meanwhile.
func (s *Store) RenewWaitLease(ctx context.Context, key, owner string, ttl time.Duration) (held bool, err error) {
	if err := validLease(key, owner, ttl); err != nil {
		return false, err
	}
	err = s.write(ctx, "renewing wait lease", func(t *tx) error {
		res, err := t.ExecContext(ctx, `UPDATE wait_leases SET expires_at = ? WHERE session_key = ? AND owner = ?`,
			millis(t.now)+ttl.Milliseconds(), key, owner)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		held = n == 1
		return err
	})
	if err != nil {
		return false, err
	}
	return held, nil
}

// ReleaseWaitLease ends owner's lease on key. Releasing a lease that is gone
// (or that another wait took over after it expired) changes nothing.
func (s *Store) ReleaseWaitLease(ctx context.Context, key, owner string) error {
	if err := validLease(key, owner, time.Second); err != nil {
		return err
	}
	return s.write(ctx, "releasing wait lease", func(t *tx) error {
		_, err := t.ExecContext(ctx, `DELETE FROM wait_leases WHERE session_key = ? AND owner = ?`, key, owner)
		return err
	})
}

package mcp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"fixthis/app/store"
)

// A parked wait holds a store wait lease (store.AcquireWaitLease), so "one
// parked wait per session" holds across every process serving MCP on the
// project, not only inside this one. The lease is renewed with the presence
// heartbeat; waitLeaseTTL is three heartbeats, so one slow renewal does not
// lose it, while a process that crashed with a wait parked blocks new waits
// on that session for at most 15 s.
const waitLeaseTTL = 3 * heartbeatEvery

// leaseReleaseTimeout bounds the release on the way out of a wait. It runs
// on its own context because the call's context may be cancelled already.
const leaseReleaseTimeout = 2 * time.Second

// waitOwners names the waits of one toolset: a random id for this process's
// tools plus a counter per wait, so a lease names exactly one wait and two
// processes (or two servers in one process) never share an owner.
type waitOwners struct {
	prefix string
	n      atomic.Uint64
}

func newWaitOwners() *waitOwners {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(fmt.Sprintf("mcp: crypto/rand failed: %v", err))
	}
	// The pid only helps a person reading the table; the random part makes
	// the id unique.
	return &waitOwners{prefix: fmt.Sprintf("pid%d-%s", os.Getpid(), hex.EncodeToString(b[:]))}
}

func (w *waitOwners) next() string { return fmt.Sprintf("%s-w%d", w.prefix, w.n.Add(1)) }

// waitTakenError is a wait refused (or ended) because another wait holds a
// conflicting lease.
type waitTakenError struct {
	sessionID string
	holder    *store.WaitLease
}

func (e *waitTakenError) Error() string {
	const prefix = "WAIT_TAKEN: wait-taken: "
	var holderKey string
	if e.holder != nil {
		holderKey = e.holder.SessionKey
	}
	switch {
	case e.sessionID != "" && holderKey == "":
		return prefix + "another fixthis_wait_for_feedback is parked for any session, which includes this one; let it return first"
	case e.sessionID == "" && holderKey != "":
		return prefix + "another fixthis_wait_for_feedback is parked for session " + holderKey +
			"; a wait on any session would be served the same batches, so wait for another session by sessionId or let it return first"
	case e.sessionID == "":
		return prefix + "another fixthis_wait_for_feedback is already parked for any session; let it return first"
	default:
		return prefix + "another fixthis_wait_for_feedback is already parked for this session; let it return first"
	}
}

func (e *waitTakenError) result() *mcp.CallToolResult { return mcp.NewToolResultError(e.Error()) }

// acquireLease takes the wait lease on sid for owner; a conflicting wait
// anywhere on the project is a *waitTakenError.
func (t *toolset) acquireLease(ctx context.Context, sid, owner string) error {
	ok, holder, err := t.deps.Store.AcquireWaitLease(ctx, sid, owner, waitLeaseTTL)
	if err != nil {
		return err
	}
	if !ok {
		return &waitTakenError{sessionID: sid, holder: holder}
	}
	return nil
}

// renewLease extends the lease of a parked wait. A lease that is gone (this
// process stalled past the TTL and another acquire removed it) is taken
// again if nothing conflicts; if another wait holds the session now, this
// wait ends with wait-taken instead of both being served. A failed write is
// only logged: the wait goes on, and the next heartbeat tries again.
func (t *toolset) renewLease(ctx context.Context, sid, owner string) error {
	held, err := t.deps.Store.RenewWaitLease(ctx, sid, owner, waitLeaseTTL)
	if err == nil && !held {
		t.deps.Logger.Warn("wait lease lapsed; taking it again", "session", sid, "owner", owner)
		err = t.acquireLease(ctx, sid, owner)
	}
	var taken *waitTakenError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &taken), ctx.Err() != nil:
		return err
	}
	t.deps.Logger.Warn("renew wait lease", "session", sid, "owner", owner, "err", err)
	return nil
}

// releaseLease ends the lease when the wait returns, however it returns.
// If the write fails the lease still expires within waitLeaseTTL.
func (t *toolset) releaseLease(sid, owner string) {
	ctx, cancel := context.WithTimeout(context.Background(), leaseReleaseTimeout)
	defer cancel()
	if err := t.deps.Store.ReleaseWaitLease(ctx, sid, owner); err != nil {
		t.deps.Logger.Warn("release wait lease", "session", sid, "owner", owner, "err", err)
	}
}

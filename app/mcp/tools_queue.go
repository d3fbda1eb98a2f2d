package mcp

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"fixthis/app/store"
)

// Wait bounds: the default returns well before common 60 s client limits.
const (
	defaultWait = 25 * time.Second
	maxWait     = 50 * time.Second
)

func (t *toolset) waitForFeedback() server.ServerTool {
	tool := mcp.NewTool("fixthis_wait_for_feedback",
		mcp.WithDescription("Wait until the developer hands you feedback (Save to MCP), answers one of your questions, or withdraws an item; "+
			"returns that batch, or {\"status\":\"timeout\"} after timeoutSeconds (then call again), {\"status\":\"session_ended\"} "+
			"once the developer closed or deleted the session, or {\"status\":\"console_gone\"} when the developer's console has been closed for a while. A batch is served again until you "+
			"acknowledge it with fixthis_ack_feedback; until then no other agent is served it while you stay connected. "+
			"One wait per session at a time, across every agent on the project; a wait without sessionId counts for every session."),
		mcp.WithTitleAnnotation("Wait for feedback"),
		sessionIDArg(false, "Wait for this session only; without it, any session."),
		mcp.WithNumber("timeoutSeconds", mcp.Description("Seconds to wait before returning a timeout (default 25, max 50)."),
			mcp.Min(1), mcp.Max(50)),
		hints{}.option(), // a wait reserves the batch it serves, so it is neither read-only nor idempotent
		mcp.WithOutputSchema[waitOut](),
	)
	return server.ServerTool{Tool: tool, Handler: func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		sid := strings.TrimSpace(req.GetString("sessionId", ""))
		timeout := defaultWait
		if secs := req.GetFloat("timeoutSeconds", 0); secs > 0 {
			timeout = min(time.Duration(secs*float64(time.Second)), maxWait)
		}
		if sid != "" {
			ended, err := t.deps.Store.SessionEnded(ctx, sid)
			if err != nil {
				return toolResult(err)
			}
			if ended == store.EndedDeleted {
				return sessionEnded(sid, ended)
			}
		}
		owner := t.owners.next()
		var taken *waitTakenError
		if err := t.acquireLease(ctx, sid, owner); errors.As(err, &taken) {
			return taken.result(), nil
		} else if err != nil {
			return toolResult(err)
		}
		defer t.releaseLease(sid, owner)
		actx := t.conns.bind(ctx)
		b, err := t.park(actx, sid, owner, timeout)
		var gone *endedError
		switch {
		case errors.As(err, &taken):
			return taken.result(), nil
		case errors.As(err, &gone):
			if gone.reason == consoleGone {
				return structured(waitOut{Status: consoleGone, Next: "the developer closed the FixThis console; stop waiting, " +
					"finish what you claimed, and wait again when they are back"})
			}
			return sessionEnded(sid, gone.reason)
		case err != nil:
			return toolResult(err)
		}
		if b == nil {
			return structured(waitOut{Status: "timeout", Next: "call fixthis_wait_for_feedback again"})
		}
		res, err := t.batchResult(ctx, b)
		if err != nil || res.IsError {
			// The agent never got this batch: it must not stay reserved to it.
			if uerr := t.deps.Store.UnreserveBatch(actx, b.BatchID); uerr != nil {
				t.deps.Logger.Warn("free an undelivered batch", "batch", b.BatchID, "err", uerr)
			}
		}
		return res, err
	}}
}

// consoleGone is the wait status when no console has had the project open
// for consoleGoneAfter: nobody is there to hand over feedback.
const consoleGone = "console_gone"

// consoleGoneAfter is "for good": well past a console reload or a laptop
// lid closed for a minute. A variable so tests can shorten it.
var consoleGoneAfter = 2 * time.Minute

// endedError ends a parked wait without a batch: the session closed or was
// deleted (reason "closed" / "deleted"), or the console is gone.
type endedError struct{ reason string }

func (e *endedError) Error() string { return "wait ended: " + e.reason }

func sessionEnded(sid, reason string) (*mcp.CallToolResult, error) {
	return structured(waitOut{Status: "session_ended", SessionID: sid, Reason: reason,
		Next: "the developer " + reason + " this session; stop working on it (fixthis_list_sessions shows the open ones)"})
}

// park blocks until a batch is queued for sid (any session when empty), the
// timeout passes (nil batch) or the client cancels. It subscribes to the
// change feed before looking at the queue, so a batch committed in between
// is never missed. owner's wait lease is renewed with each heartbeat. A
// session that closes or is deleted ends the wait at once (*endedError), as
// does a console that has been gone for consoleGoneAfter.
func (t *toolset) park(ctx context.Context, sid, owner string, timeout time.Duration) (*store.AgentBatch, error) {
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	wake := make(chan struct{}, 1)
	t.deps.Store.Watch(wctx, func(c store.Change) {
		relevant := c.Kind == store.ChangeAgentBatch && (sid == "" || c.SessionID == sid)
		ending := sid != "" && c.SessionID == sid && (c.Kind == store.ChangeSession || c.Kind == store.ChangeSessionDeleted)
		if relevant || ending {
			select {
			case wake <- struct{}{}:
			default:
			}
		}
	})
	t.presence.waitStarted(sid)
	served := false
	defer func() { t.presence.waitEnded(sid, served) }()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	beat := time.NewTicker(heartbeatEvery)
	defer beat.Stop()
	checkConsole := true
	for {
		if sid != "" {
			ended, err := t.deps.Store.SessionEnded(ctx, sid)
			if err != nil {
				return nil, err
			}
			if ended == store.EndedDeleted {
				return nil, &endedError{reason: ended}
			}
		}
		b, err := t.deps.Store.NextAgentBatch(ctx, sid)
		if err != nil {
			return nil, err
		}
		if b != nil {
			served = true
			if b.SessionID != sid {
				t.presence.activity(b.SessionID)
			}
			return b, nil
		}
		if sid != "" {
			// A closed session's last batches are served first; then it is over.
			if ended, err := t.deps.Store.SessionEnded(ctx, sid); err != nil {
				return nil, err
			} else if ended != "" {
				return nil, &endedError{reason: ended}
			}
		}
		if checkConsole {
			if seen, err := t.deps.Store.ConsoleLastSeen(ctx); err == nil && seen != nil && time.Since(*seen) > consoleGoneAfter {
				return nil, &endedError{reason: consoleGone}
			}
			checkConsole = false
		}
		select {
		case <-wake:
		case <-beat.C:
			checkConsole = true
			t.presence.heartbeat(sid)
			if err := t.renewLease(ctx, sid, owner); err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				return nil, err
			}
		case <-deadline.C:
			return nil, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func (t *toolset) batchResult(ctx context.Context, b *store.AgentBatch) (*mcp.CallToolResult, error) {
	out := waitOut{Status: "batch", BatchID: b.BatchID, SessionID: b.SessionID, Kind: b.Kind, ServeCount: b.ServeCount,
		Items: toItemsOut(b.Items), Answers: b.Answers, Withdrawals: b.Withdrawals, Reopened: b.Reopened}
	switch b.Kind {
	case store.BatchKindRelease:
		text, err := t.releasePrompt(ctx, b, itemIDs(b.Items))
		if err != nil {
			return toolResult(err)
		}
		out.Prompt = text
		out.Next = "fixthis_ack_feedback(batchId) now; then per item fixthis_claim_feedback, edit, fixthis_resolve_feedback"
	case store.BatchKindAnswer:
		out.Next = "fixthis_ack_feedback(batchId); the developer answered your question, continue with the item"
	case store.BatchKindReopen:
		out.Next = "fixthis_ack_feedback(batchId); the developer says the fix is not right: read the note, " +
			"fixthis_claim_feedback, fix it, check on the phone, fixthis_resolve_feedback with verification"
	default:
		out.Next = "fixthis_ack_feedback(batchId); stop working on the withdrawn items"
	}
	return structured(out)
}

func (t *toolset) ackFeedback() server.ServerTool {
	tool := mcp.NewTool("fixthis_ack_feedback",
		mcp.WithDescription("Acknowledge a batch returned by fixthis_wait_for_feedback so it is not served again. Call it right after reading the batch; repeating it is harmless."),
		mcp.WithTitleAnnotation("Acknowledge feedback batch"),
		mcp.WithString("batchId", mcp.Required(), mcp.MinLength(1), mcp.MaxLength(200), mcp.Description("The batchId of the wait result.")),
		hints{idempotent: true}.option(),
		mcp.WithOutputSchema[store.AckResult](),
	)
	return server.ServerTool{Tool: tool, Handler: func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		id, err := req.RequireString("batchId")
		if err != nil {
			return invalidArg("%v", err), nil
		}
		res, err := t.deps.Store.AckBatch(ctx, strings.TrimSpace(id))
		if err != nil {
			return toolResult(err)
		}
		t.presence.activity(res.SessionID)
		return structured(res)
	}}
}

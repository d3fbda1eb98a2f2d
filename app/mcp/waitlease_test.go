package mcp

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"fixthis/app/store"
)

// offsetClock is real time plus an offset the test moves forward, so a store
// handle can live "later" than the others without stalling its timers.
type offsetClock struct {
	mu     sync.Mutex
	offset time.Duration
}

func (c *offsetClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.offset)
}

func (c *offsetClock) advance(d time.Duration) {
	c.mu.Lock()
	c.offset += d
	c.mu.Unlock()
}

// parkWait starts a wait through c and returns a channel with its outcome
// and a cancel for the call.
func parkWait(t *testing.T, c interface {
	CallTool(context.Context, mcpCallToolRequest) (*mcpCallToolResult, error)
}, args map[string]any) (<-chan *mcpCallToolResult, context.CancelFunc) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan *mcpCallToolResult, 1)
	go func() {
		var req mcpCallToolRequest
		req.Params.Name = "fixthis_wait_for_feedback"
		req.Params.Arguments = args
		res, _ := c.CallTool(ctx, req)
		done <- res
	}()
	return done, cancel
}

func wantWaitTaken(t *testing.T, res *mcpCallToolResult, what string) {
	t.Helper()
	if !res.IsError || !strings.HasPrefix(text(res), "WAIT_TAKEN: wait-taken: ") {
		t.Fatalf("%s: want WAIT_TAKEN, got error=%v %q", what, res.IsError, text(res))
	}
}

// TestWaitLeaseAcrossProcesses runs two MCP servers, each on its own store
// handle of one project, as the stdio sidecar and the app's /mcp endpoint
// do: a wait parked through one refuses conflicting waits through the other
// until it returns.
func TestWaitLeaseAcrossProcesses(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	storeA, storeB, console := openStore(t, dir), openStore(t, dir), openStore(t, dir)
	a := newClient(t, Deps{Store: storeA})
	b := newClient(t, Deps{Store: storeB})
	sess, _ := seed(t, console, 1)
	other, _ := seed(t, console, 1)
	sid := sess.SessionID

	parked, cancel := parkWait(t, a, map[string]any{"sessionId": sid, "timeoutSeconds": 30})
	defer cancel()
	waitForPresence(t, console, sid, store.PresenceListening)

	wantWaitTaken(t, call(t, b, "fixthis_wait_for_feedback", map[string]any{"sessionId": sid, "timeoutSeconds": 1}, nil),
		"same session through the other process")
	res := call(t, b, "fixthis_wait_for_feedback", map[string]any{"timeoutSeconds": 1}, nil)
	wantWaitTaken(t, res, "any session beside a session wait")
	if !strings.Contains(text(res), sid) {
		t.Errorf("any-session refusal does not name the session: %q", text(res))
	}
	// Another session is free: its batch can never reach A's wait.
	var out waitOut
	call(t, b, "fixthis_wait_for_feedback", map[string]any{"sessionId": other.SessionID, "timeoutSeconds": 1}, &out)
	if out.Status != "timeout" {
		t.Fatalf("wait on another session: %+v", out)
	}

	// A serves the batch and returns; then B may wait on the session, but
	// the unacknowledged batch stays with A while A is connected.
	rel, err := console.ReleaseToAgent(ctx, sid, nil)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case res := <-parked:
		if res == nil || res.IsError || !strings.Contains(text(res), rel.BatchID) {
			t.Fatalf("parked wait returned %+v", res)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("parked wait never returned the batch")
	}
	call(t, b, "fixthis_wait_for_feedback", map[string]any{"sessionId": sid, "timeoutSeconds": 1}, &out)
	if out.Status != "timeout" {
		t.Fatalf("wait through B was served A's unacknowledged batch: %+v", out)
	}
	call(t, a, "fixthis_ack_feedback", map[string]any{"batchId": rel.BatchID}, nil)

	// An any-session wait through B excludes session waits through A, and a
	// cancelled wait gives its lease back at once.
	parked, cancel = parkWait(t, b, map[string]any{"timeoutSeconds": 30})
	waitForPresence(t, console, "", store.PresenceListening)
	wantWaitTaken(t, call(t, a, "fixthis_wait_for_feedback", map[string]any{"sessionId": other.SessionID, "timeoutSeconds": 1}, nil),
		"session wait beside an any-session wait")
	cancel()
	<-parked
	call(t, a, "fixthis_wait_for_feedback", map[string]any{"timeoutSeconds": 1}, &out)
	if out.Status != "timeout" {
		t.Fatalf("any-session wait after the cancelled one: %+v", out)
	}
}

// failingPrompter fails every render, to end a wait with an error after it
// took its lease.
type failingPrompter struct{}

func (failingPrompter) Markdown(context.Context, string, []string) (string, error) {
	return "", errors.New("renderer unavailable")
}

// TestWaitLeaseReleasedOnError: a wait that fails after taking its lease
// gives it back, so the other process can wait.
func TestWaitLeaseReleasedOnError(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	storeA, storeB := openStore(t, dir), openStore(t, dir)
	a := newClient(t, Deps{Store: storeA, Prompt: failingPrompter{}})
	b := newClient(t, Deps{Store: storeB})
	sess, _ := seed(t, storeB, 1)
	if _, err := storeB.ReleaseToAgent(ctx, sess.SessionID, nil); err != nil {
		t.Fatal(err)
	}
	var req mcpCallToolRequest
	req.Params.Name = "fixthis_wait_for_feedback"
	req.Params.Arguments = map[string]any{"sessionId": sess.SessionID, "timeoutSeconds": 1}
	if res, err := a.CallTool(ctx, req); err == nil && !res.IsError {
		t.Fatalf("wait with a failing prompt succeeded: %q", text(res))
	}
	var out waitOut
	call(t, b, "fixthis_wait_for_feedback", map[string]any{"sessionId": sess.SessionID, "timeoutSeconds": 1}, &out)
	if out.Status != "batch" {
		t.Fatalf("wait after the failed one: %+v", out)
	}
}

// TestWaitLeaseCrashedOwner: a process that crashed with a wait parked left
// its lease behind; it blocks the session until the TTL passes, then the
// next wait takes it over.
func TestWaitLeaseCrashedOwner(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	crashed := openStore(t, dir)
	clk := &offsetClock{}
	later := openStoreAt(t, dir, clk.Now)
	c := newClient(t, Deps{Store: later})
	sess, _ := seed(t, crashed, 1)
	if ok, _, err := crashed.AcquireWaitLease(ctx, sess.SessionID, "pid1-dead-w1", waitLeaseTTL); err != nil || !ok {
		t.Fatalf("crashed owner's lease: %v %v", ok, err)
	}
	args := map[string]any{"sessionId": sess.SessionID, "timeoutSeconds": 1}
	wantWaitTaken(t, call(t, c, "fixthis_wait_for_feedback", args, nil), "while the dead lease is live")
	clk.advance(waitLeaseTTL - time.Second)
	wantWaitTaken(t, call(t, c, "fixthis_wait_for_feedback", args, nil), "a second before the dead lease expires")
	clk.advance(time.Second)
	var out waitOut
	call(t, c, "fixthis_wait_for_feedback", args, &out)
	if out.Status != "timeout" {
		t.Fatalf("wait after the dead lease expired: %+v", out)
	}
}

// TestRenewLease covers the heartbeat's renewal: a held lease is extended, a
// lapsed one is taken again, and one another wait took over ends the wait
// with wait-taken.
func TestRenewLease(t *testing.T) {
	ctx := context.Background()
	clk := &offsetClock{}
	s := openStoreAt(t, t.TempDir(), clk.Now)
	ts := &toolset{deps: Deps{Store: s, Logger: slog.New(slog.DiscardHandler)}, owners: newWaitOwners()}
	owner := ts.owners.next()
	if err := ts.acquireLease(ctx, "S", owner); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		setup   func()
		wantErr bool
	}{
		{"held lease renews", func() {}, false},
		{"released lease is taken again", func() { _ = s.ReleaseWaitLease(ctx, "S", owner) }, false},
		{"lease taken over after expiry ends the wait", func() {
			clk.advance(waitLeaseTTL)
			if ok, _, err := s.AcquireWaitLease(ctx, "S", "other-w1", waitLeaseTTL); err != nil || !ok {
				t.Fatalf("take over: %v %v", ok, err)
			}
		}, true},
	} {
		tc.setup()
		err := ts.renewLease(ctx, "S", owner)
		var taken *waitTakenError
		if got := errors.As(err, &taken); got != tc.wantErr || (err != nil && !tc.wantErr) {
			t.Fatalf("%s: renew: %v", tc.name, err)
		}
		if taken != nil && !strings.HasPrefix(taken.Error(), "WAIT_TAKEN: wait-taken: ") {
			t.Fatalf("%s: %q", tc.name, taken.Error())
		}
	}
	if a, b := newWaitOwners(), newWaitOwners(); a.next() == b.next() {
		t.Fatal("two toolsets share a wait owner id")
	}
}

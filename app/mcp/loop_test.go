package mcp

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"fixthis/app/store"
	"fixthis/internal/eventually"
)

// TestAgentLoop runs list → wait → ack → claim → ask → answer (console) →
// wait → resolve through an in-process client, the console side writing
// through a second store handle as the app process would.
func TestAgentLoop(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	agentStore := openStore(t, dir)
	console := openStore(t, dir)
	var presMu sync.Mutex
	var pres []string
	c := newClient(t, Deps{Store: agentStore, Prompt: listPrompter{}, OnPresence: func(p store.Presence) {
		presMu.Lock()
		pres = append(pres, string(p.Presence))
		presMu.Unlock()
	}})
	sess, items := seed(t, console, 2)
	sid := sess.SessionID

	var sessions sessionsOut
	call(t, c, "fixthis_list_feedback_sessions", nil, &sessions)
	if len(sessions.Sessions) != 1 || sessions.Sessions[0].PhaseCounts.Draft != 2 {
		t.Fatalf("sessions %+v", sessions)
	}
	var list feedbackListOut
	call(t, c, "fixthis_list_feedback", map[string]any{"sessionId": sid}, &list)
	if len(list.Items) != 0 {
		t.Fatalf("drafts listed before Save to MCP: %+v", list.Items)
	}

	// A parked wait returns soon after the console's Save to MCP.
	type waitRes struct {
		out  waitOut
		took time.Duration
	}
	done := make(chan waitRes, 1)
	go func() {
		var out waitOut
		call(t, c, "fixthis_wait_for_feedback", map[string]any{"sessionId": sid, "timeoutSeconds": 10}, &out)
		done <- waitRes{out: out}
	}()
	waitForPresence(t, console, sid, store.PresenceListening)
	released := time.Now()
	rel, err := console.ReleaseToAgent(ctx, sid, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := <-done
	w.took = time.Since(released)
	if w.out.Status != "batch" || w.out.BatchID != rel.BatchID || len(w.out.Items) != 2 || !strings.Contains(w.out.Prompt, items[0].ItemID) {
		t.Fatalf("wait result %+v", w.out)
	}
	if w.took > 500*time.Millisecond {
		t.Fatalf("Save to MCP reached the wait after %s", w.took)
	}
	t.Logf("Save to MCP → wait returned in %s", w.took)
	if p, _ := console.GetPresence(ctx, sid); p.Presence != store.PresenceWorking {
		t.Fatalf("presence after batch %s", p.Presence)
	}

	// Unacknowledged, the batch is served again.
	var again waitOut
	call(t, c, "fixthis_wait_for_feedback", map[string]any{"sessionId": sid, "timeoutSeconds": 1}, &again)
	if again.BatchID != rel.BatchID || again.ServeCount != 2 {
		t.Fatalf("re-serve %+v", again)
	}
	var ack store.AckResult
	call(t, c, "fixthis_ack_feedback", map[string]any{"batchId": rel.BatchID}, &ack)
	if ack.AlreadyAcked {
		t.Fatal("first ack already acked")
	}

	var claimed itemResultOut
	call(t, c, "fixthis_claim_feedback", map[string]any{"sessionId": sid, "itemId": items[0].ItemID, "agentNote": "resizing"}, &claimed)
	if claimed.Item.Phase != string(store.PhaseInProgress) {
		t.Fatalf("claim %+v", claimed.Item)
	}
	got, _ := console.GetSession(ctx, sid)
	if got.Items[0].Phase != store.PhaseInProgress || got.Items[0].AgentNote != "resizing" {
		t.Fatalf("console sees %+v", got.Items[0])
	}

	var asked itemResultOut
	call(t, c, "fixthis_claim_feedback", map[string]any{"sessionId": sid, "itemId": items[1].ItemID}, nil)
	call(t, c, "fixthis_ask", map[string]any{"sessionId": sid, "itemId": items[1].ItemID, "question": "Which size?"}, &asked)
	if asked.Item.Phase != string(store.PhaseNeedsClarify) {
		t.Fatalf("ask %+v", asked.Item)
	}
	go func() {
		time.Sleep(100 * time.Millisecond)
		if _, err := console.AnswerQuestion(ctx, sid, items[1].ItemID, "48dp"); err != nil {
			t.Error(err)
		}
	}()
	var ans waitOut
	call(t, c, "fixthis_wait_for_feedback", map[string]any{"sessionId": sid, "timeoutSeconds": 5}, &ans)
	if ans.Kind != store.BatchKindAnswer || len(ans.Answers) != 1 || ans.Answers[0].Answer != "48dp" {
		t.Fatalf("answer batch %+v", ans)
	}
	call(t, c, "fixthis_ack_feedback", map[string]any{"batchId": ans.BatchID}, nil)

	var resolved itemResultOut
	call(t, c, "fixthis_resolve_feedback", map[string]any{"sessionId": sid, "itemId": items[0].ItemID,
		"status": "resolved", "summary": "Button.kt:42 uses 48dp"}, &resolved)
	if resolved.Item.Phase != string(store.PhaseResolved) || resolved.Item.ResolvedBy != string(store.ResolvedByAgent) {
		t.Fatalf("resolve %+v", resolved.Item)
	}
	res := call(t, c, "fixthis_claim_feedback", map[string]any{"sessionId": sid, "itemId": items[0].ItemID}, nil)
	if !res.IsError || !strings.HasPrefix(text(res), "ITEM_ALREADY_RESOLVED: ") {
		t.Fatalf("claim resolved: %v %q", res.IsError, text(res))
	}
	presMu.Lock()
	defer presMu.Unlock()
	if !strings.Contains(strings.Join(pres, ","), "working,listening,working") {
		t.Fatalf("presence callbacks %v", pres)
	}
}

func waitForPresence(t *testing.T, s *store.Store, sid string, want store.PresenceState) {
	t.Helper()
	eventually.True(t, 2*time.Second, "presence "+string(want), func() bool {
		p, err := s.GetPresence(context.Background(), sid)
		return err == nil && p.Presence == want
	})
}

func TestWaitRules(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, t.TempDir())
	c := newClient(t, Deps{Store: s})
	sess, _ := seed(t, s, 1)
	sid := sess.SessionID

	// A second wait on the same session is refused while one is parked.
	wctx, cancel := context.WithCancel(ctx)
	parked := make(chan struct{})
	go func() {
		defer close(parked)
		var req waitOut
		callCtxNoFail(wctx, c, "fixthis_wait_for_feedback", map[string]any{"sessionId": sid, "timeoutSeconds": 30}, &req)
	}()
	waitForPresence(t, s, sid, store.PresenceListening)
	res := call(t, c, "fixthis_wait_for_feedback", map[string]any{"sessionId": sid, "timeoutSeconds": 1}, nil)
	if !res.IsError || !strings.Contains(text(res), "wait-taken") {
		t.Fatalf("second wait: %q", text(res))
	}
	// Cancelling the parked call ends it at once.
	cancelled := time.Now()
	cancel()
	select {
	case <-parked:
	case <-time.After(2 * time.Second):
		t.Fatal("cancelled wait still parked")
	}
	// And frees the slot.
	eventually.Get(t, 2*time.Second, "the wait slot freed after the cancel", func() *mcp.CallToolResult {
		return call(t, c, "fixthis_wait_for_feedback", map[string]any{"sessionId": sid, "timeoutSeconds": 1}, nil)
	}, func(res *mcp.CallToolResult) bool { return !res.IsError }, func(res *mcp.CallToolResult) string {
		return fmt.Sprintf("%q %s after the cancel", text(res), time.Since(cancelled))
	})

	other, _ := seed(t, s, 1)
	var out waitOut
	start := time.Now()
	call(t, c, "fixthis_wait_for_feedback", map[string]any{"sessionId": other.SessionID, "timeoutSeconds": 1}, &out)
	if out.Status != "timeout" || time.Since(start) < time.Second {
		t.Fatalf("timeout %+v after %s", out, time.Since(start))
	}

	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"sessionId": "missing"}, "SESSION_NOT_FOUND: "},
		{map[string]any{"timeoutSeconds": 500}, ""},
	} {
		res := call(t, c, "fixthis_wait_for_feedback", tc.args, nil)
		if !res.IsError || !strings.Contains(text(res), tc.want) {
			t.Errorf("%v: %v %q", tc.args, res.IsError, text(res))
		}
	}
}

// callCtxNoFail calls a tool and ignores the outcome (used for a call the
// test cancels on purpose).
func callCtxNoFail(ctx context.Context, c interface {
	CallTool(context.Context, mcpCallToolRequest) (*mcpCallToolResult, error)
}, name string, args map[string]any, _ any) {
	var req mcpCallToolRequest
	req.Params.Name = name
	req.Params.Arguments = args
	c.CallTool(ctx, req)
}

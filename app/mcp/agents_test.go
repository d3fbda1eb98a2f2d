package mcp

import (
	"context"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"

	"fixthis/app/store"
)

// TestAgentsShareOneProject runs three MCP servers on one project, as three
// agents' stdio sidecars do: a served batch stays with the agent it was
// served to, a claim is exclusive, and the developer's decision is final.
func TestAgentsShareOneProject(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	console := openStore(t, dir)
	a := newClient(t, Deps{Store: openStore(t, dir), Prompt: listPrompter{}})
	b := newClient(t, Deps{Store: openStore(t, dir), Prompt: listPrompter{}})
	c := newClient(t, Deps{Store: openStore(t, dir), Prompt: listPrompter{}})
	sess, items := seed(t, console, 2)
	sid := sess.SessionID
	rel, err := console.ReleaseToAgent(ctx, sid, nil)
	if err != nil {
		t.Fatal(err)
	}

	var out waitOut
	call(t, a, "fixthis_wait_for_feedback", map[string]any{"sessionId": sid, "timeoutSeconds": 1}, &out)
	if out.BatchID != rel.BatchID {
		t.Fatalf("first agent's wait: %+v", out)
	}
	for _, other := range []*client.Client{b, c} {
		var o waitOut
		call(t, other, "fixthis_wait_for_feedback", map[string]any{"timeoutSeconds": 1}, &o)
		if o.Status != "timeout" {
			t.Fatalf("another agent was served the unacknowledged batch: %+v", o)
		}
	}

	first, second := items[0].ItemID, items[1].ItemID
	ids := func(iid string) map[string]any { return map[string]any{"sessionId": sid, "itemId": iid} }
	if res := call(t, a, "fixthis_claim_feedback", ids(first), nil); res.IsError {
		t.Fatalf("claim: %s", text(res))
	}
	if res := call(t, a, "fixthis_claim_feedback", ids(first), nil); res.IsError {
		t.Fatalf("same agent claiming again: %s", text(res))
	}
	res := call(t, b, "fixthis_claim_feedback", ids(first), nil)
	if !res.IsError || !strings.HasPrefix(text(res), "ITEM_CLAIMED: ") || !strings.Contains(text(res), "since ") {
		t.Fatalf("second agent's claim: error=%v %q", res.IsError, text(res))
	}

	if _, err := console.ResolveByUser(ctx, sid, second, "wont_fix"); err != nil {
		t.Fatal(err)
	}
	args := ids(second)
	args["status"], args["summary"] = "resolved", "changed Button.kt:12"
	res = call(t, a, "fixthis_resolve_feedback", args, nil)
	if !res.IsError || !strings.HasPrefix(text(res), "ITEM_CLOSED_BY_USER: ") {
		t.Fatalf("resolve over the developer's won't fix: error=%v %q", res.IsError, text(res))
	}
	d, err := console.ReadItem(ctx, sid, second)
	if err != nil {
		t.Fatal(err)
	}
	if d.Item.Status != "wont_fix" || d.Item.ResolvedBy != "user" || d.Item.AgentSummary != "" {
		t.Fatalf("the agent changed a closed item: %+v", d.Item)
	}
	var read readOut
	call(t, a, "fixthis_read_feedback", ids(second), &read)
	if read.Item == nil || read.Item.ResolvedAt == "" {
		t.Fatalf("a won't-fix item carries no resolvedAt: %+v", read.Item)
	}
}

// TestPresenceFollowsTheConnection: an agent holding a claim is working for
// as long as its connection is open, and away once it closes.
func TestPresenceFollowsTheConnection(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	console := openStore(t, dir)
	a := newClient(t, Deps{Store: openStore(t, dir), Prompt: listPrompter{}})
	sess, items := seed(t, console, 1)
	sid := sess.SessionID
	if _, err := console.ReleaseToAgent(ctx, sid, nil); err != nil {
		t.Fatal(err)
	}
	var out waitOut
	call(t, a, "fixthis_wait_for_feedback", map[string]any{"sessionId": sid, "timeoutSeconds": 1}, &out)
	call(t, a, "fixthis_ack_feedback", map[string]any{"batchId": out.BatchID}, nil)
	call(t, a, "fixthis_claim_feedback", map[string]any{"sessionId": sid, "itemId": items[0].ItemID}, nil)
	waitForPresence(t, console, sid, store.PresenceWorking)
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	waitForPresence(t, console, sid, store.PresenceAway)
}

package mcp

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"fixthis/app/store"
)

// sharedProject is one project several agents work on, as several stdio sidecars
// do: the console's store handle, a session whose items were released to the
// agents, and one client per agent, each with its own server and store handle.
type sharedProject struct {
	console *store.Store
	sid     string
	items   []store.Item
	batchID string // the release
	agents  []*client.Client
}

func newSharedProject(t *testing.T, agents, items int) sharedProject {
	t.Helper()
	dir := t.TempDir()
	p := sharedProject{console: openStore(t, dir)}
	for range agents {
		p.agents = append(p.agents, newClient(t, Deps{Store: openStore(t, dir), Prompt: listPrompter{}}))
	}
	sess, its := seed(t, p.console, items)
	p.sid, p.items = sess.SessionID, its
	rel, err := p.console.ReleaseToAgent(context.Background(), p.sid, nil)
	if err != nil {
		t.Fatal(err)
	}
	p.batchID = rel.BatchID
	return p
}

// TestAgentsShareOneProject runs three MCP servers on one project, as three
// agents' stdio sidecars do: a served batch stays with the agent it was
// served to, a claim is exclusive, and the developer's decision is final.
func TestAgentsShareOneProject(t *testing.T) {
	ctx := context.Background()
	p := newSharedProject(t, 3, 2)
	console, sid, items := p.console, p.sid, p.items
	a, b, c := p.agents[0], p.agents[1], p.agents[2]

	var out waitOut
	call(t, a, "fixthis_wait_for_feedback", map[string]any{"sessionId": sid, "timeoutSeconds": 1}, &out)
	if out.BatchID != p.batchID {
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
	p := newSharedProject(t, 1, 1)
	console, sid, items, a := p.console, p.sid, p.items, p.agents[0]
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

// TestRacingAgentsKeepTheClaimersOutcome runs four agents, each with its own
// MCP server and store handle on one project (four stdio sidecars), racing
// over items round by round: all claim at once, then all resolve at once,
// then all try to override. Exactly one claim wins per item, only the
// claimer's outcome is stored, and every other attempt is refused with the
// code that says why.
func TestRacingAgentsKeepTheClaimersOutcome(t *testing.T) {
	const agents, rounds = 4, 8
	ctx := context.Background()
	p := newSharedProject(t, agents, rounds)
	console, sid, items, clients := p.console, p.sid, p.items, p.agents
	// race calls tool on every agent at once and returns each agent's result.
	race := func(tool string, args func(agent int) map[string]any) []*mcp.CallToolResult {
		out := make([]*mcp.CallToolResult, agents)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i, c := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				out[i] = call(t, c, tool, args(i), nil)
			}()
		}
		close(start)
		wg.Wait()
		return out
	}
	refusals := map[string]int{}
	attempts, slipped := 0, 0
	for round, it := range items {
		ids := func(int) map[string]any { return map[string]any{"sessionId": sid, "itemId": it.ItemID} }
		winner := -1
		for i, res := range race("fixthis_claim_feedback", ids) {
			switch {
			case !res.IsError && winner < 0:
				winner = i
			case !res.IsError:
				t.Fatalf("round %d: agents %d and %d both hold the claim", round, winner, i)
			case !strings.HasPrefix(text(res), "ITEM_CLAIMED: "):
				t.Fatalf("round %d: losing claim answered %q", round, text(res))
			}
		}
		if winner < 0 {
			t.Fatalf("round %d: no agent got the claim", round)
		}
		outcome := func(i int) (string, string) {
			if i%2 == 0 {
				return "resolved", fmt.Sprintf("agent %d fixed it", i)
			}
			return "wont_fix", fmt.Sprintf("agent %d overrides", i)
		}
		resolve := func(i int) map[string]any {
			status, summary := outcome(i)
			return map[string]any{"sessionId": sid, "itemId": it.ItemID, "status": status, "summary": summary}
		}
		for i, res := range race("fixthis_resolve_feedback", resolve) {
			msg := text(res)
			if i == winner {
				if res.IsError {
					t.Fatalf("round %d: the claimer's resolve was refused: %s", round, msg)
				}
				continue
			}
			attempts++
			if !res.IsError {
				t.Errorf("round %d: agent %d resolved an item agent %d claimed", round, i, winner)
				slipped++
				continue
			}
			// Before the claimer's resolve commits the item is claimed, after it resolved.
			code, _, _ := strings.Cut(msg, ": ")
			if code != "ITEM_CLAIMED" && code != "ITEM_ALREADY_RESOLVED" {
				t.Fatalf("round %d: agent %d's resolve answered %q", round, i, msg)
			}
			refusals[code]++
		}
		// Every agent, the claimer too, tries the other outcome.
		override := func(i int) map[string]any { return resolve(i + 1) }
		for i, res := range race("fixthis_resolve_feedback", override) {
			attempts++
			if !res.IsError || !strings.HasPrefix(text(res), "ITEM_ALREADY_RESOLVED: ") {
				t.Errorf("round %d: agent %d's override answered error=%v %.80q", round, i, res.IsError, text(res))
				slipped++
				continue
			}
			refusals["ITEM_ALREADY_RESOLVED"]++
		}
		for i, res := range race("fixthis_ask", func(int) map[string]any {
			return map[string]any{"sessionId": sid, "itemId": it.ItemID, "question": "reopen it?"}
		}) {
			attempts++
			if !res.IsError || !strings.HasPrefix(text(res), "ITEM_ALREADY_RESOLVED: ") {
				t.Errorf("round %d: agent %d's ask answered error=%v %.80q", round, i, res.IsError, text(res))
				slipped++
			}
		}
		d, err := console.ReadItem(ctx, sid, it.ItemID)
		if err != nil {
			t.Fatal(err)
		}
		status, summary := outcome(winner)
		if string(d.Item.Status) != status || d.Item.AgentSummary != summary || d.Item.ResolvedBy != "agent" {
			t.Errorf("round %d: stored %s %q, want the claimer's %s %q", round, d.Item.Status, d.Item.AgentSummary, status, summary)
		}
	}
	t.Logf("%d rounds: %d of %d writes by non-claimers or over a resolved item got through; refusals %v",
		rounds, slipped, attempts, refusals)
}

// TestResolveNeedsTheClaim: an agent that never claimed an item can neither
// resolve nor ask it; the asker keeps its claim and resolves once answered.
func TestResolveNeedsTheClaim(t *testing.T) {
	ctx := context.Background()
	p := newSharedProject(t, 2, 1)
	console, sid, iid, a, b := p.console, p.sid, p.items[0].ItemID, p.agents[0], p.agents[1]
	resolve := map[string]any{"sessionId": sid, "itemId": iid, "status": "resolved", "summary": "fixed"}
	ask := map[string]any{"sessionId": sid, "itemId": iid, "question": "which one?"}
	for name, args := range map[string]map[string]any{"fixthis_resolve_feedback": resolve, "fixthis_ask": ask} {
		if res := call(t, a, name, args, nil); !res.IsError || !strings.HasPrefix(text(res), "ITEM_NOT_CLAIMED: ") {
			t.Fatalf("%s without a claim: error=%v %q", name, res.IsError, text(res))
		}
	}
	call(t, a, "fixthis_claim_feedback", map[string]any{"sessionId": sid, "itemId": iid}, nil)
	if res := call(t, a, "fixthis_ask", ask, nil); res.IsError {
		t.Fatalf("the claimer's ask: %s", text(res))
	}
	if res := call(t, b, "fixthis_resolve_feedback", resolve, nil); !res.IsError || !strings.HasPrefix(text(res), "ITEM_CLAIMED: ") {
		t.Fatalf("another agent's resolve of an asked item: error=%v %q", res.IsError, text(res))
	}
	if _, err := console.AnswerQuestion(ctx, sid, iid, "the blue one"); err != nil {
		t.Fatal(err)
	}
	if res := call(t, a, "fixthis_resolve_feedback", resolve, nil); res.IsError {
		t.Fatalf("the asker's resolve after the answer: %s", text(res))
	}
}

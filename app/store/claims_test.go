package store

import (
	"context"
	"strings"
	"testing"
	"time"

	"fixthis/app/errcode"
)

// TestUserDecisionIsFinal: once the developer closes an item (resolved, won't
// fix, deleted), the agent's claim, resolve and ask are ITEM_CLOSED_BY_USER
// and the item keeps the developer's decision.
func TestUserDecisionIsFinal(t *testing.T) {
	ctx := context.Background()
	agentCalls := map[string]func(s *Store, sid, iid string) error{
		"claim": func(s *Store, sid, iid string) error { _, err := s.Claim(ctx, sid, iid, ""); return err },
		"resolve": func(s *Store, sid, iid string) error {
			_, err := s.Resolve(ctx, ResolveInput{SessionID: sid, ItemID: iid, Status: StatusResolved, Summary: "fixed"})
			return err
		},
		"ask": func(s *Store, sid, iid string) error { _, err := s.Ask(ctx, sid, iid, "which?"); return err },
	}
	decisions := map[string]func(s *Store, sid, iid string){
		"wont_fix": func(s *Store, sid, iid string) { mustOK(s.ResolveByUser(ctx, sid, iid, StatusWontFix))(t) },
		"resolved": func(s *Store, sid, iid string) { mustOK(s.ResolveByUser(ctx, sid, iid, StatusResolved))(t) },
		"deleted": func(s *Store, sid, iid string) {
			if err := s.DeleteItem(ctx, sid, iid); err != nil {
				t.Fatal(err)
			}
		},
	}
	for dname, decide := range decisions {
		for cname, call := range agentCalls {
			t.Run(dname+"/"+cname, func(t *testing.T) {
				s, sid, items := storeWithReleased(t, 1)
				iid := items[0].ItemID
				mustOK(s.Claim(WithAgent(ctx, "a1"), sid, iid, ""))(t)
				decide(s, sid, iid)
				err := call(s, sid, iid)
				if errcode.Of(err) != errcode.ItemClosedByUser || !strings.HasPrefix(err.Error(), "ITEM_CLOSED_BY_USER: ") {
					t.Fatalf("%s after %s: %v, want ITEM_CLOSED_BY_USER", cname, dname, err)
				}
				if dname == "deleted" {
					return
				}
				d, err := s.ReadItem(ctx, sid, iid)
				if err != nil {
					t.Fatal(err)
				}
				if string(d.Item.Status) != dname || d.Item.ResolvedBy != ResolvedByUser || d.Item.AgentSummary != "" || d.Item.ResolvedAt == nil {
					t.Fatalf("item changed by the agent: %+v", d.Item)
				}
			})
		}
	}
}

// TestClaimIsExclusive: a claim belongs to one agent connection while it is
// alive; the same agent may claim again, another gets ITEM_CLAIMED, and a
// claim whose connection is gone can be taken over.
func TestClaimIsExclusive(t *testing.T) {
	ctx := context.Background()
	s, sid, items := storeWithReleased(t, 1)
	iid := items[0].ItemID
	a, b := WithAgent(ctx, "agent-a"), WithAgent(ctx, "agent-b")
	if err := s.TouchConnections(ctx, []string{"agent-a", "agent-b"}); err != nil {
		t.Fatal(err)
	}
	first := mustOK(s.Claim(a, sid, iid, "on it"))(t)
	again := mustOK(s.Claim(a, sid, iid, ""))(t)
	if again.Status != StatusInProgress || again.AgentNote != "on it" || !again.ClaimedAt.Equal(*first.ClaimedAt) {
		t.Fatalf("repeated claim changed the claim: %+v", again)
	}
	for name, call := range map[string]func() error{
		"claim": func() error { _, err := s.Claim(b, sid, iid, ""); return err },
		"resolve": func() error {
			_, err := s.Resolve(b, ResolveInput{SessionID: sid, ItemID: iid, Status: StatusResolved, Summary: "mine"})
			return err
		},
		"ask": func() error { _, err := s.Ask(b, sid, iid, "?"); return err },
	} {
		err := call()
		if errcode.Of(err) != errcode.ItemClaimed || !strings.Contains(err.Error(), "since "+first.ClaimedAt.UTC().Format("2006-01-02T15:04:05Z")) {
			t.Fatalf("%s by a second agent: %v, want ITEM_CLAIMED naming since when", name, err)
		}
	}
	if err := s.EndConnection(ctx, "agent-a"); err != nil {
		t.Fatal(err)
	}
	taken := mustOK(s.Claim(b, sid, iid, "taking over"))(t)
	if taken.ClaimedBy != "agent-b" {
		t.Fatalf("claim of a gone connection not taken over: %+v", taken)
	}
}

// TestBatchServedToOneAgent: an unacknowledged batch goes to one waiting
// agent at a time; it is served again to the same agent, and to another
// agent only once the first one's connection is gone.
func TestBatchServedToOneAgent(t *testing.T) {
	ctx := context.Background()
	s, sid, _ := storeWithReleased(t, 2)
	if err := s.TouchConnections(ctx, []string{"agent-a", "agent-b"}); err != nil {
		t.Fatal(err)
	}
	a, b := WithAgent(ctx, "agent-a"), WithAgent(ctx, "agent-b")
	first := mustOK(s.NextAgentBatch(a, sid))(t)
	if first == nil {
		t.Fatal("no batch served")
	}
	if other := mustOK(s.NextAgentBatch(b, ""))(t); other != nil {
		t.Fatalf("second agent was served %s, already served to the first", other.BatchID)
	}
	if again := mustOK(s.NextAgentBatch(a, sid))(t); again == nil || again.BatchID != first.BatchID {
		t.Fatalf("first agent not served its batch again: %+v", again)
	}
	if err := s.EndConnection(ctx, "agent-a"); err != nil {
		t.Fatal(err)
	}
	if moved := mustOK(s.NextAgentBatch(b, sid))(t); moved == nil || moved.BatchID != first.BatchID {
		t.Fatalf("batch of a gone agent not served to the next: %+v", moved)
	}
}

// TestPresenceWorkingWhileClaimHeld: an agent that holds a claim on a live
// connection is working through a long edit; it turns away when the
// connection ends.
func TestPresenceWorkingWhileClaimHeld(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s := openWith(t, t.TempDir(), Options{Now: func() time.Time { return now }})
	sid, items := releasedItems(t, s, 1)
	mustOK(s.SetPresence(ctx, sid, PresenceWorking))(t)
	if err := s.TouchConnections(ctx, []string{"a"}); err != nil {
		t.Fatal(err)
	}
	mustOK(s.Claim(WithAgent(ctx, "a"), sid, items[0].ItemID, ""))(t)
	for range 12 { // a 20-minute edit, the connection refreshed all along
		now = now.Add(100 * time.Second)
		if err := s.TouchConnections(ctx, []string{"a"}); err != nil {
			t.Fatal(err)
		}
		if p := mustOK(s.GetPresence(ctx, sid))(t); p.Presence != PresenceWorking {
			t.Fatalf("after %s of editing: %s, want working", p.LastSeenAt.Sub(now), p.Presence)
		}
	}
	if err := s.EndConnection(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if p := mustOK(s.GetPresence(ctx, sid))(t); p.Presence != PresenceAway {
		t.Fatalf("after the connection ended: %s, want away", p.Presence)
	}
}

// TestAgentTextRefusesControlCharacters: questions, summaries and notes are
// stored text too.
func TestAgentTextRefusesControlCharacters(t *testing.T) {
	ctx := context.Background()
	s, sid, items := storeWithReleased(t, 1)
	iid := items[0].ItemID
	for name, call := range map[string]func() error{
		"question": func() error { _, err := s.Ask(ctx, sid, iid, "\u0000which?"); return err },
		"summary": func() error {
			_, err := s.Resolve(ctx, ResolveInput{SessionID: sid, ItemID: iid, Status: StatusResolved, Summary: "done\u0008"})
			return err
		},
		"note":   func() error { _, err := s.Claim(ctx, sid, iid, "\u001b[31m"); return err },
		"answer": func() error { _, err := s.AnswerQuestion(ctx, sid, iid, "\u0000"); return err },
	} {
		if err := call(); errcode.Of(err) != errcode.InvalidInput {
			t.Errorf("%s with a control character: %v, want INVALID_INPUT", name, err)
		}
	}
}

// TestAgentPickupInstant: with agentPickup instant every saved item reaches
// the agent at once as its own batch; batch (the default) waits for Save to
// MCP.
func TestAgentPickupInstant(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(t)
	sess := mustSession(t, s)
	if sess.AgentPickup != PickupBatch {
		t.Fatalf("default pickup %q", sess.AgentPickup)
	}
	bad := Pickup("sometimes")
	if _, err := s.UpdateSession(ctx, sess.SessionID, SessionUpdate{AgentPickup: &bad}); errcode.Of(err) != errcode.InvalidInput {
		t.Fatalf("bad pickup: %v", err)
	}
	mustSave(t, s, batchInput(t, sess.SessionID, "ws1", 1, false))
	if n := mustOK(s.PendingBatches(ctx, sess.SessionID))(t); n != 0 {
		t.Fatalf("batch pickup released %d batches on save", n)
	}
	instant := PickupInstant
	up := mustOK(s.UpdateSession(ctx, sess.SessionID, SessionUpdate{AgentPickup: &instant}))(t)
	if up.AgentPickup != PickupInstant {
		t.Fatalf("pickup after update %q", up.AgentPickup)
	}
	in := batchInput(t, sess.SessionID, "ws2", 2, false)
	in.IfMatch = "*"
	res := mustSave(t, s, in)
	for _, it := range res.Items {
		if it.Phase != PhaseSent {
			t.Errorf("item %d saved under instant pickup is %s, want sent", it.SequenceNumber, it.Phase)
		}
	}
	for i, it := range res.Items {
		b := mustOK(s.NextAgentBatch(WithAgent(ctx, "a"), sess.SessionID))(t)
		if b == nil || len(b.Items) != 1 || b.Items[0].ItemID != it.ItemID {
			t.Fatalf("batch %d: %+v, want item %s alone", i, b, it.ItemID)
		}
		mustOK(s.AckBatch(ctx, b.BatchID))(t)
	}
}

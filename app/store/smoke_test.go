package store

import (
	"context"
	"testing"
)

func TestWholeLoop(t *testing.T) {
	ctx := WithAgent(context.Background(), "agent-1")
	s, sess, items := storeWithItems(t, 3)
	if sess.PhaseCounts.Draft != 3 || sess.ItemCount != 3 || len(sess.Screens) != 1 {
		t.Fatalf("after save: %+v", sess.SessionSummary)
	}
	rel, err := s.ReleaseToAgent(ctx, sess.SessionID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rel.Items) != 3 || rel.Session.PhaseCounts.Sent != 3 {
		t.Fatalf("release: %+v", rel.Session.PhaseCounts)
	}
	b, err := s.NextAgentBatch(ctx, "")
	if err != nil || b == nil || len(b.Items) != 3 || b.BatchID != rel.BatchID {
		t.Fatalf("next batch: %+v %v", b, err)
	}
	if _, err := s.AckBatch(ctx, b.BatchID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Claim(ctx, sess.SessionID, items[0].ItemID, "on it"); err != nil {
		t.Fatal(err)
	}
	it, err := s.Resolve(ctx, ResolveInput{SessionID: sess.SessionID, ItemID: items[0].ItemID, Status: StatusResolved, Summary: "done"})
	if err != nil || it.Phase != PhaseResolved || it.ResolvedBy != ResolvedByAgent {
		t.Fatalf("resolve: %+v %v", it, err)
	}
}

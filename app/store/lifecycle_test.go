package store

import (
	"context"
	"strings"
	"testing"

	"fixthis/app/errcode"
)

func ptr[T any](v T) *T { return &v }

func TestUpdateItemRules(t *testing.T) {
	ctx := WithAgent(context.Background(), "agent-1")
	cases := []struct {
		name      string
		prepare   func(s *Store, sid, iid string)
		wantCode  errcode.Code
		wantPhase Phase
	}{
		{"draft stays draft", func(*Store, string, string) {}, "", PhaseDraft},
		{"sent becomes sent_modified", func(s *Store, sid, iid string) {
			mustOK(s.ReleaseToAgent(ctx, sid, []string{iid}))(t)
		}, "", PhaseSentModified},
		{"needs_clarification stays editable", func(s *Store, sid, iid string) {
			mustOK(s.ReleaseToAgent(ctx, sid, []string{iid}))(t)
			mustOK(s.Claim(ctx, sid, iid, ""))(t)
			mustOK(s.Ask(ctx, sid, iid, "which button?"))(t)
		}, "", PhaseNeedsClarify},
		{"in_progress refused", func(s *Store, sid, iid string) {
			mustOK(s.Claim(ctx, sid, iid, ""))(t)
		}, errcode.ItemNotEditable, ""},
		{"resolved refused", func(s *Store, sid, iid string) {
			mustOK(s.ResolveByUser(ctx, sid, iid, StatusResolved))(t)
		}, errcode.ItemNotEditable, ""},
		{"closed session refused", func(s *Store, sid, iid string) {
			mustOK(s.CloseSession(ctx, sid))(t)
		}, errcode.SessionClosed, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, sess, items := storeWithItems(t, 1)
			tc.prepare(s, sess.SessionID, items[0].ItemID)
			it, err := s.UpdateItem(ctx, sess.SessionID, items[0].ItemID, ItemUpdate{Comment: ptr("  smaller  "), Severity: ptr(SeverityLow)})
			if tc.wantCode != "" {
				if errcode.Of(err) != tc.wantCode {
					t.Fatalf("got %v, want %s", err, tc.wantCode)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if it.Phase != tc.wantPhase || it.Comment != "smaller" || it.Severity != SeverityLow {
				t.Fatalf("got phase %s comment %q severity %s", it.Phase, it.Comment, it.Severity)
			}
		})
	}
}

func TestUpdateItemValidationAndRevision(t *testing.T) {
	ctx := context.Background()
	s, sess, items := storeWithItems(t, 1)
	if _, err := s.UpdateItem(ctx, sess.SessionID, items[0].ItemID, ItemUpdate{Comment: ptr(" ")}); errcode.Of(err) != errcode.InvalidInput {
		t.Fatalf("empty comment: %v", err)
	}
	if _, err := s.UpdateItem(ctx, sess.SessionID, "missing", ItemUpdate{Comment: ptr("x")}); errcode.Of(err) != errcode.ItemNotFound {
		t.Fatalf("missing item: %v", err)
	}
	if _, err := s.UpdateItem(ctx, "other", items[0].ItemID, ItemUpdate{Comment: ptr("x")}); errcode.Of(err) != errcode.SessionNotFound {
		t.Fatalf("wrong session: %v", err)
	}
	it, err := s.UpdateItem(ctx, sess.SessionID, items[0].ItemID, ItemUpdate{Target: &Target{Type: TargetScreen}})
	if err != nil || it.Target.Type != TargetScreen {
		t.Fatalf("retarget: %+v %v", it, err)
	}
	after, _ := s.GetSession(ctx, sess.SessionID)
	if after.ETag == sess.ETag {
		t.Fatal("an edit did not change the ETag")
	}
	// Agent activity does not make the console's draft stale.
	mustOK(s.Claim(ctx, sess.SessionID, items[0].ItemID, ""))(t)
	again, _ := s.GetSession(ctx, sess.SessionID)
	if again.ETag != after.ETag {
		t.Fatal("an agent claim changed the ETag")
	}
}

// mustOK(call())(t) fails the test when call returned an error.
func mustOK[T any](v T, err error) func(testing.TB) T {
	return func(t testing.TB) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func TestReleaseToAgent(t *testing.T) {
	ctx := context.Background()
	s, sess, items := storeWithItems(t, 3)
	rel := mustOK(s.ReleaseToAgent(ctx, sess.SessionID, []string{items[0].ItemID, items[1].ItemID}))(t)
	if len(rel.Items) != 2 || rel.Items[0].Status != StatusReady || rel.Items[0].LastHandedOffAt == nil {
		t.Fatalf("released: %+v", rel.Items)
	}
	if c := rel.Session.PhaseCounts; c.Sent != 2 || c.Draft != 1 {
		t.Fatalf("counts %+v", c)
	}
	if len(rel.Session.Handoffs) != 1 || rel.Session.Handoffs[0].Kind != HandoffKindMCP || rel.Session.Handoffs[0].BatchID != rel.BatchID {
		t.Fatalf("handoffs %+v", rel.Session.Handoffs)
	}
	// Releasing already-sent items again is refused; an edited one goes again.
	if _, err := s.ReleaseToAgent(ctx, sess.SessionID, []string{items[0].ItemID}); errcode.Of(err) != errcode.NoDraftFeedback {
		t.Fatalf("re-release: %v", err)
	}
	mustOK(s.UpdateItem(ctx, sess.SessionID, items[0].ItemID, ItemUpdate{Comment: ptr("changed")}))(t)
	again := mustOK(s.ReleaseToAgent(ctx, sess.SessionID, nil))(t)
	if len(again.Items) != 2 || again.Session.PhaseCounts.Sent != 3 {
		t.Fatalf("second release: %d items, %+v", len(again.Items), again.Session.PhaseCounts)
	}
	if _, err := s.ReleaseToAgent(ctx, sess.SessionID, []string{"nope"}); errcode.Of(err) != errcode.ItemNotFound {
		t.Fatalf("unknown id: %v", err)
	}
}

func TestMarkCopied(t *testing.T) {
	ctx := context.Background()
	s, sess, items := storeWithItems(t, 2)
	got := mustOK(s.MarkCopied(ctx, sess.SessionID, []string{items[1].ItemID}))(t)
	if got.Items[1].LastHandedOffAt == nil || got.Items[0].LastHandedOffAt != nil || got.Items[1].Delivery != DeliveryDraft {
		t.Fatalf("copied: %+v", got.Items)
	}
	if len(got.Handoffs) != 1 || got.Handoffs[0].Kind != HandoffKindCopy {
		t.Fatalf("handoffs %+v", got.Handoffs)
	}
	if n := mustOK(s.PendingBatches(ctx, sess.SessionID))(t); n != 0 {
		t.Fatalf("copy queued %d agent batches", n)
	}
}

func TestAgentClaimResolveAsk(t *testing.T) {
	ctx := WithAgent(context.Background(), "agent-1")
	claim := func(s *Store, sid, iid string) { mustOK(s.Claim(ctx, sid, iid, ""))(t) }
	cases := []struct {
		name     string
		prepare  func(s *Store, sid, iid string)
		act      func(s *Store, sid, iid string) (*Item, error)
		wantCode errcode.Code
		phase    Phase
		check    func(t *testing.T, it *Item)
	}{
		{"claim sent", nil, func(s *Store, sid, iid string) (*Item, error) { return s.Claim(ctx, sid, iid, "looking") },
			"", PhaseInProgress, func(t *testing.T, it *Item) {
				if it.AgentNote != "looking" {
					t.Errorf("note %q", it.AgentNote)
				}
			}},
		{"claim twice", func(s *Store, sid, iid string) { mustOK(s.Claim(ctx, sid, iid, "a"))(t) },
			func(s *Store, sid, iid string) (*Item, error) { return s.Claim(ctx, sid, iid, "") }, "", PhaseInProgress,
			func(t *testing.T, it *Item) {
				if it.AgentNote != "a" {
					t.Errorf("note lost: %q", it.AgentNote)
				}
			}},
		{"claim resolved by user", func(s *Store, sid, iid string) { mustOK(s.ResolveByUser(ctx, sid, iid, StatusResolved))(t) },
			func(s *Store, sid, iid string) (*Item, error) { return s.Claim(ctx, sid, iid, "") }, errcode.ItemClosedByUser, "", nil},
		{"claim resolved by agent", func(s *Store, sid, iid string) {
			mustOK(s.Claim(ctx, sid, iid, ""))(t)
			mustOK(s.Resolve(ctx, ResolveInput{SessionID: sid, ItemID: iid, Status: StatusResolved, Summary: "done"}))(t)
		}, func(s *Store, sid, iid string) (*Item, error) { return s.Claim(ctx, sid, iid, "") }, errcode.ItemAlreadyResolved, "", nil},
		{"claim wont_fix", func(s *Store, sid, iid string) {
			mustOK(s.Claim(ctx, sid, iid, ""))(t)
			mustOK(s.Resolve(ctx, ResolveInput{SessionID: sid, ItemID: iid, Status: StatusWontFix, Summary: "no"}))(t)
		}, func(s *Store, sid, iid string) (*Item, error) { return s.Claim(ctx, sid, iid, "") }, errcode.ItemAlreadyResolved, "", nil},
		{"claim closed session", func(s *Store, sid, iid string) { mustOK(s.CloseSession(ctx, sid))(t) },
			func(s *Store, sid, iid string) (*Item, error) { return s.Claim(ctx, sid, iid, "") }, errcode.SessionClosed, "", nil},
		{"claim unknown item", nil, func(s *Store, sid, iid string) (*Item, error) { return s.Claim(ctx, sid, "x", "") }, errcode.ItemNotFound, "", nil},
		{"resolve", claim, func(s *Store, sid, iid string) (*Item, error) {
			return s.Resolve(ctx, ResolveInput{SessionID: sid, ItemID: iid, Status: StatusResolved, Summary: "Made it bigger in Button.kt"})
		}, "", PhaseResolved, func(t *testing.T, it *Item) {
			if it.ResolvedBy != ResolvedByAgent || it.AgentSummary == "" {
				t.Errorf("resolved: %+v", it)
			}
		}},
		{"resolve needs_clarification", claim, func(s *Store, sid, iid string) (*Item, error) {
			return s.Resolve(ctx, ResolveInput{SessionID: sid, ItemID: iid, Status: StatusNeedsClarification, Summary: "Which screen?"})
		}, "", PhaseNeedsClarify, func(t *testing.T, it *Item) {
			if it.AgentQuestion != "Which screen?" || it.ResolvedBy != "" || it.ClaimedBy != "agent-1" {
				t.Errorf("clarify: %+v", it)
			}
		}},
		{"resolve without summary", nil, func(s *Store, sid, iid string) (*Item, error) {
			return s.Resolve(ctx, ResolveInput{SessionID: sid, ItemID: iid, Status: StatusResolved, Summary: " "})
		}, errcode.InvalidInput, "", nil},
		{"resolve bad status", nil, func(s *Store, sid, iid string) (*Item, error) {
			return s.Resolve(ctx, ResolveInput{SessionID: sid, ItemID: iid, Status: "done", Summary: "x"})
		}, errcode.InvalidInput, "", nil},
		{"ask", claim, func(s *Store, sid, iid string) (*Item, error) { return s.Ask(ctx, sid, iid, "Which colour?") },
			"", PhaseNeedsClarify, func(t *testing.T, it *Item) {
				if it.ClaimedBy != "agent-1" {
					t.Errorf("the asker lost its claim: %+v", it)
				}
			}},
		{"resolve unclaimed", nil, func(s *Store, sid, iid string) (*Item, error) {
			return s.Resolve(ctx, ResolveInput{SessionID: sid, ItemID: iid, Status: StatusResolved, Summary: "mine"})
		}, errcode.ItemNotClaimed, "", nil},
		{"ask unclaimed", nil, func(s *Store, sid, iid string) (*Item, error) { return s.Ask(ctx, sid, iid, "?") },
			errcode.ItemNotClaimed, "", nil},
		{"resolve without identity", claim, func(s *Store, sid, iid string) (*Item, error) {
			return s.Resolve(context.Background(), ResolveInput{SessionID: sid, ItemID: iid, Status: StatusResolved, Summary: "anon"})
		}, errcode.ItemNotClaimed, "", nil},
		{"resolve resolved", func(s *Store, sid, iid string) {
			claim(s, sid, iid)
			mustOK(s.Resolve(ctx, ResolveInput{SessionID: sid, ItemID: iid, Status: StatusResolved, Summary: "done"}))(t)
		}, func(s *Store, sid, iid string) (*Item, error) {
			return s.Resolve(ctx, ResolveInput{SessionID: sid, ItemID: iid, Status: StatusWontFix, Summary: "overrides"})
		}, errcode.ItemAlreadyResolved, "", nil},
		{"ask wont_fix", func(s *Store, sid, iid string) {
			claim(s, sid, iid)
			mustOK(s.Resolve(ctx, ResolveInput{SessionID: sid, ItemID: iid, Status: StatusWontFix, Summary: "no"}))(t)
		}, func(s *Store, sid, iid string) (*Item, error) { return s.Ask(ctx, sid, iid, "?") }, errcode.ItemAlreadyResolved, "", nil},
		{"ask resolved by user", func(s *Store, sid, iid string) { mustOK(s.ResolveByUser(ctx, sid, iid, StatusWontFix))(t) },
			func(s *Store, sid, iid string) (*Item, error) { return s.Ask(ctx, sid, iid, "?") }, errcode.ItemClosedByUser, "", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, sid, items := storeWithReleased(t, 1)
			if tc.prepare != nil {
				tc.prepare(s, sid, items[0].ItemID)
			}
			it, err := tc.act(s, sid, items[0].ItemID)
			if tc.wantCode != "" {
				if errcode.Of(err) != tc.wantCode {
					t.Fatalf("got %v, want %s", err, tc.wantCode)
				}
				prefix := tc.wantCode.Prefix() + ": "
				if !strings.HasPrefix(err.Error(), prefix) {
					t.Fatalf("message %q lacks prefix %q", err, prefix)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if it.Phase != tc.phase {
				t.Fatalf("phase %s, want %s", it.Phase, tc.phase)
			}
			if tc.check != nil {
				tc.check(t, it)
			}
		})
	}
}

func TestAgentBatchQueue(t *testing.T) {
	ctx := WithAgent(context.Background(), "agent-1")
	s, sess, items := storeWithItems(t, 2)
	sid := sess.SessionID

	if b := mustOK(s.NextAgentBatch(ctx, sid))(t); b != nil {
		t.Fatalf("batch before any release: %+v", b)
	}
	rel := mustOK(s.ReleaseToAgent(ctx, sid, nil))(t)
	mustOK(s.Claim(ctx, sid, items[0].ItemID, ""))(t)
	mustOK(s.Ask(ctx, sid, items[0].ItemID, "Which colour?"))(t)
	mustOK(s.AnswerQuestion(ctx, sid, items[0].ItemID, "Blue"))(t)
	if err := s.DeleteItem(ctx, sid, items[1].ItemID); err != nil {
		t.Fatal(err)
	}

	// Served until acknowledged, also by a new handle (a restart).
	b1 := mustOK(s.NextAgentBatch(ctx, ""))(t)
	if b1.BatchID != rel.BatchID || b1.Kind != BatchKindRelease || len(b1.Items) != 1 {
		t.Fatalf("first batch %+v (deleted items are left out)", b1)
	}
	s = reopen(t, s, "")
	again := mustOK(s.NextAgentBatch(ctx, sid))(t)
	if again.BatchID != b1.BatchID || again.ServeCount != 2 {
		t.Fatalf("re-served %+v", again)
	}
	if r := mustOK(s.AckBatch(ctx, b1.BatchID))(t); r.AlreadyAcked {
		t.Fatal("first ack reported already acked")
	}
	if r := mustOK(s.AckBatch(ctx, b1.BatchID))(t); !r.AlreadyAcked {
		t.Fatal("second ack not idempotent")
	}
	if _, err := s.AckBatch(ctx, "b-unknown"); errcode.Of(err) != errcode.BatchNotFound {
		t.Fatalf("unknown batch: %v", err)
	}

	ans := mustOK(s.NextAgentBatch(ctx, sid))(t)
	if ans.Kind != BatchKindAnswer || len(ans.Answers) != 1 || ans.Answers[0].Answer != "Blue" || ans.Answers[0].Question != "Which colour?" {
		t.Fatalf("answer batch %+v", ans)
	}
	if ans.Items[0].Status != StatusReady {
		t.Fatalf("answered item is %s, want ready", ans.Items[0].Status)
	}
	mustOK(s.AckBatch(ctx, ans.BatchID))(t)
	wd := mustOK(s.NextAgentBatch(ctx, sid))(t)
	if wd.Kind != BatchKindWithdrawn || len(wd.Withdrawals) != 1 || wd.Withdrawals[0].ItemID != items[1].ItemID {
		t.Fatalf("withdrawal batch %+v", wd)
	}
	mustOK(s.AckBatch(ctx, wd.BatchID))(t)
	if b := mustOK(s.NextAgentBatch(ctx, sid))(t); b != nil {
		t.Fatalf("queue not empty: %+v", b)
	}
	if _, err := s.NextAgentBatch(ctx, "missing"); errcode.Of(err) != errcode.SessionNotFound {
		t.Fatalf("unknown session: %v", err)
	}
}

func TestUserSideRules(t *testing.T) {
	ctx := context.Background()
	s, sess, items := storeWithItems(t, 3)
	sid := sess.SessionID
	if _, err := s.AnswerQuestion(ctx, sid, items[0].ItemID, "x"); errcode.Of(err) != errcode.ItemNotEditable {
		t.Fatalf("answer without question: %v", err)
	}
	if _, err := s.ResolveByUser(ctx, sid, items[0].ItemID, StatusInProgress); errcode.Of(err) != errcode.InvalidInput {
		t.Fatalf("user in_progress: %v", err)
	}
	// A draft deleted or resolved by the user was never the agent's: no withdrawal.
	it := mustOK(s.ResolveByUser(ctx, sid, items[0].ItemID, StatusWontFix))(t)
	if it.Phase != PhaseWontFix || it.ResolvedBy != ResolvedByUser {
		t.Fatalf("user wont_fix: %+v", it)
	}
	if n := mustOK(s.PendingBatches(ctx, sid))(t); n != 0 {
		t.Fatalf("%d batches for a draft", n)
	}
	// A released item resolved by the user is withdrawn from the agent.
	mustOK(s.ReleaseToAgent(ctx, sid, []string{items[1].ItemID}))(t)
	mustOK(s.ResolveByUser(ctx, sid, items[1].ItemID, StatusResolved))(t)
	if n := mustOK(s.PendingBatches(ctx, sid))(t); n != 2 {
		t.Fatalf("%d batches, want release + withdrawal", n)
	}
	n := mustOK(s.DeleteDraftItems(ctx, sid))(t)
	if n != 1 {
		t.Fatalf("cleared %d drafts, want 1 (terminal and sent items stay)", n)
	}
	if n := mustOK(s.DeleteDraftItems(ctx, sid))(t); n != 0 {
		t.Fatalf("second clear deleted %d", n)
	}
}

package store

import (
	"context"
	"strings"
	"testing"

	"fixthis/app/errcode"
)

// An item added from a finding keeps its check id; others read back without one,
// as do items saved before the column existed.
func TestItemKeepsAuditCheck(t *testing.T) {
	ctx := context.Background()
	s, sess, in := newBatch(t, 2)
	in.Items[0].Check = "touch_target"
	res := mustSave(t, s, in)
	if res.Items[0].Check != "touch_target" || res.Items[1].Check != "" {
		t.Fatalf("checks %q %q", res.Items[0].Check, res.Items[1].Check)
	}
	if n := countRows(t, s, `SELECT COUNT(*) FROM items WHERE audit_check IS NULL`); n != 1 {
		t.Fatalf("%d items without a check stored NULL, want 1", n)
	}

	// A database from before migration 0011 gains the column, NULL for every item.
	s = reopen(t, s, `ALTER TABLE items DROP COLUMN audit_check; DROP TABLE audit_dismissals; ALTER TABLE screens DROP COLUMN serial; PRAGMA user_version = 10`)
	back, err := s.GetSession(ctx, sess.SessionID)
	if err != nil || len(back.Items) != 2 || back.Items[0].Check != "" {
		t.Fatalf("old items: %+v, %v", back, err)
	}
}

func TestAuditCheckIsValidated(t *testing.T) {
	for _, bad := range []string{"Touch", "touch target", "touch\x00target", strings.Repeat("a", 41), "touch-target"} {
		s, _, in := newBatch(t, 1)
		in.Items[0].Check = bad
		_, err := s.SaveBatch(context.Background(), in)
		if errcode.Of(err) != errcode.InvalidInput {
			t.Fatalf("check %q: err %v, want a validation error", bad, err)
		}
		if len(err.Error()) > 300 {
			t.Fatalf("check %q: error quotes too much: %d bytes", bad, len(err.Error()))
		}
	}
}

func TestDismissedFindingsStayPerScreen(t *testing.T) {
	s := newTestStore(t)
	ctx := context.Background()
	for i := 0; i < 2; i++ { // twice is once
		if err := s.DismissFinding(ctx, "com.example/.Main", "touch_target|n3|id/search"); err != nil {
			t.Fatal(err)
		}
	}
	s = reopen(t, s, "")
	got, err := s.DismissedFindings(ctx, "com.example/.Main")
	if err != nil || len(got) != 1 || !got["touch_target|n3|id/search"] {
		t.Fatalf("dismissed %v %v", got, err)
	}
	other, err := s.DismissedFindings(ctx, "com.example/.Other")
	if err != nil || len(other) != 0 {
		t.Fatalf("another screen: %v %v", other, err)
	}
	if err := s.DismissFinding(ctx, "", "k"); err == nil {
		t.Fatal("an empty screen key was accepted")
	}
	if err := s.DismissFinding(ctx, "s", strings.Repeat("k", 300)); err == nil {
		t.Fatal("an oversized finding key was accepted")
	}
}

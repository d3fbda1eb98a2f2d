package store

// Sessions, reads and the rules every read and edit shares (the lifecycle tests are in
// lifecycle_test.go).

import (
	"context"
	"errors"
	"strings"
	"testing"

	"fixthis/app/errcode"
)

func TestSessionsCRUD(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(t)
	a := mustOK(s.CreateSession(ctx, ""))(t)
	if a.Title == "" || a.RuntimeEvidencePolicy != PolicyAuto || a.Status != SessionOpen || a.ETag != `"0"` {
		t.Fatalf("new session %+v", a)
	}
	b, _ := sessionWithItems(t, s, 2)
	list := mustOK(s.ListSessions(ctx))(t)
	if len(list) != 2 || list[0].SessionID != b.SessionID || list[0].PhaseCounts.Draft != 2 || list[0].ItemCount != 2 {
		t.Fatalf("list %+v", list)
	}
	up := mustOK(s.UpdateSession(ctx, a.SessionID, SessionUpdate{Title: ptr("Login"), RuntimeEvidencePolicy: ptr(PolicyOff)}))(t)
	if up.Title != "Login" || up.RuntimeEvidencePolicy != PolicyOff {
		t.Fatalf("update %+v", up.SessionSummary)
	}
	for _, bad := range []SessionUpdate{{Title: ptr(" ")}, {RuntimeEvidencePolicy: ptr(EvidencePolicy("always"))}, {Title: ptr(strings.Repeat("x", 201))}} {
		if _, err := s.UpdateSession(ctx, a.SessionID, bad); errcode.Of(err) != errcode.InvalidInput {
			t.Errorf("update %+v: %v", bad, err)
		}
	}
	closed := mustOK(s.CloseSession(ctx, a.SessionID))(t)
	if closed.Status != SessionClosed {
		t.Fatal("not closed")
	}
	mustOK(s.CloseSession(ctx, a.SessionID))(t)
	if _, err := s.UpdateSession(ctx, a.SessionID, SessionUpdate{Title: ptr("x")}); errcode.Of(err) != errcode.SessionClosed {
		t.Fatalf("update closed: %v", err)
	}
	if err := s.DeleteSession(ctx, b.SessionID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetSession(ctx, b.SessionID); errcode.Of(err) != errcode.SessionNotFound {
		t.Fatalf("get deleted: %v", err)
	}
	if err := s.DeleteSession(ctx, b.SessionID); errcode.Of(err) != errcode.SessionNotFound {
		t.Fatalf("delete twice: %v", err)
	}
	if n := countRows(t, s, `SELECT COUNT(*) FROM items`); n != 0 {
		t.Fatalf("%d items survived their session", n)
	}
	if evs := mustOK(s.Events(ctx, b.SessionID, 0))(t); len(evs) < 3 || evs[len(evs)-1].Kind != "session-deleted" {
		t.Fatalf("history of deleted session: %+v", evs)
	}
	if _, err := s.rdb.Exec(`DELETE FROM events`); err == nil || !strings.Contains(err.Error(), "append-only") {
		t.Fatalf("events deletable: %v", err)
	}
}

func TestListAndReadFeedback(t *testing.T) {
	ctx := WithAgent(context.Background(), "agent-1")
	s := newTestStore(t)
	sess := mustSession(t, s)
	res := mustSave(t, s, batchInput(t, sess.SessionID, "ws", 4, true))
	ids := func(items []Item) (out []int) {
		for _, it := range items {
			out = append(out, it.SequenceNumber)
		}
		return out
	}
	mustOK(s.ReleaseToAgent(ctx, sess.SessionID, []string{res.Items[0].ItemID, res.Items[1].ItemID}))(t)
	mustOK(s.MarkCopied(ctx, sess.SessionID, []string{res.Items[2].ItemID}))(t)
	mustOK(s.Claim(ctx, sess.SessionID, res.Items[1].ItemID, ""))(t)
	mustOK(s.Resolve(ctx, ResolveInput{SessionID: sess.SessionID, ItemID: res.Items[1].ItemID, Status: StatusResolved, Summary: "ok"}))(t)
	if got := ids(mustOK(s.ListFeedback(ctx, FeedbackQuery{}))(t).Items); len(got) != 2 || got[0] != 1 || got[1] != 3 {
		t.Fatalf("default list %v, want [1 3]", got)
	}
	if got := ids(mustOK(s.ListFeedback(ctx, FeedbackQuery{SessionID: sess.SessionID, IncludeAll: true}))(t).Items); len(got) != 4 {
		t.Fatalf("all %v", got)
	}
	page := mustOK(s.ListFeedback(ctx, FeedbackQuery{SessionID: sess.SessionID, IncludeAll: true, Limit: 3}))(t)
	if len(page.Items) != 3 || page.Total != 4 || page.Items[2].SequenceNumber != 3 {
		t.Fatalf("page %d items of %d", len(page.Items), page.Total)
	}
	if _, err := s.ListFeedback(ctx, FeedbackQuery{SessionID: "nope"}); errcode.Of(err) != errcode.SessionNotFound {
		t.Fatalf("unknown session: %v", err)
	}
	d := mustOK(s.ReadItem(ctx, "", res.Items[0].ItemID))(t)
	if d.Screen == nil || d.Screen.ImageArtifact == "" || d.Item.CropArtifact == "" || d.Item.CropURL == "" || d.Screen.ImageURL == "" {
		t.Fatalf("detail %+v", d)
	}
	if _, err := s.ReadArtifact(ctx, d.Item.CropArtifact); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReadItem(ctx, "", "nope"); errcode.Of(err) != errcode.ItemNotFound {
		t.Fatalf("missing: %v", err)
	}
}

func TestPhaseSQLMatchesGo(t *testing.T) {
	s := newTestStore(t)
	for _, status := range ItemStatuses {
		for _, delivery := range Deliveries {
			for _, mod := range []bool{false, true} {
				var got Phase
				q := `SELECT ` + strings.NewReplacer("status", "?1", "delivery", "?2", "modified_after_send", "?3").Replace(phaseSQL)
				if err := s.rdb.QueryRow(q, status, delivery, mod).Scan(&got); err != nil {
					t.Fatal(err)
				}
				if want := derivePhase(delivery, status, mod); got != want {
					t.Errorf("%s/%s/%v: sql %s, go %s", status, delivery, mod, got, want)
				}
			}
		}
	}
}

func TestErrorCodes(t *testing.T) {
	cases := []struct {
		err    error
		code   errcode.Code
		prefix string
	}{
		{errorf(errcode.SessionNotFound, "x"), errcode.SessionNotFound, "SESSION_NOT_FOUND: x"},
		{invalid("x"), errcode.InvalidInput, "INVALID_INPUT: x"},
		{&StaleDraftError{}, errcode.StalePreview, "STALE_PREVIEW: "},
		{&FingerprintMismatchError{"a", "b"}, errcode.FingerprintMismatch, "SCREEN_FINGERPRINT_MISMATCH: "},
		{storageErr("saving batch", errors.New("boom")), errcode.Internal, "store: saving batch: boom"},
	}
	for _, tc := range cases {
		if code := errcode.Of(tc.err); code != tc.code || !strings.HasPrefix(tc.err.Error(), tc.prefix) {
			t.Errorf("%v: got %s, want %s with prefix %q", tc.err, code, tc.code, tc.prefix)
		}
	}
}

// OpenItemIDs is the one answer to "which items count as open" (Copy Prompt without
// a choice, `fixthis prompt` without --item, read_feedback's orphan check).
func TestOpenItemIDs(t *testing.T) {
	sess := &Session{Items: []Item{
		{ItemID: "a", Status: StatusOpen}, {ItemID: "b", Status: StatusResolved}, {ItemID: "c", Status: StatusReady},
		{ItemID: "d", Status: StatusWontFix}, {ItemID: "e", Status: StatusInProgress}, {ItemID: "f", Status: StatusNeedsClarification},
	}}
	if got, want := strings.Join(sess.OpenItemIDs(), ","), "a,c,e,f"; got != want {
		t.Fatalf("open items %s, want %s", got, want)
	}
	if ids := (&Session{Items: []Item{{ItemID: "b", Status: StatusResolved}}}).OpenItemIDs(); ids != nil {
		t.Fatalf("a finished session has open items %v", ids)
	}
}

// TestAnEditedTargetStaysOnItsScreen: an edit is held to the rule a save is, in
// the store, whatever route the edit came by.
func TestAnEditedTargetStaysOnItsScreen(t *testing.T) {
	ctx := context.Background()
	s, sess, items := storeWithItems(t, 1) // a 1080×2400 screen
	area := func(l, tp, r, b int) ItemUpdate {
		return ItemUpdate{Target: &Target{Type: TargetArea, Bounds: &Bounds{Left: l, Top: tp, Right: r, Bottom: b}}}
	}
	for _, c := range []struct {
		name string
		u    ItemUpdate
		want string // "" accepted
	}{
		{"inside", area(0, 0, 1080, 2400), ""},
		{"past the right edge", area(1000, 10, 1081, 20), "leave the 1080×2400 screen"},
		{"past the bottom", area(10, 2000, 20, 2401), "leave the 1080×2400 screen"},
		{"2^62", area(0, 0, 1<<62, 1<<62), "leave the 1080×2400 screen"},
		{"a node far off", ItemUpdate{Target: &Target{Type: TargetNode, NodeUID: "n9",
			Bounds: &Bounds{Left: 5000, Top: 5000, Right: 6000, Bottom: 6000}}}, "leave the 1080×2400 screen"},
	} {
		_, err := s.UpdateItem(ctx, sess.SessionID, items[0].ItemID, c.u)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (errcode.Of(err) != errcode.InvalidInput || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v; want INVALID_INPUT with %q", c.name, err, c.want)
		}
	}
	got, err := s.ReadItem(ctx, sess.SessionID, items[0].ItemID)
	if err != nil || got.Item.Target.Bounds == nil || got.Item.Target.Bounds.Right != 1080 {
		t.Fatalf("a refused edit changed the item: %+v %v", got, err)
	}
}

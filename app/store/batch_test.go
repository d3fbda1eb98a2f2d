package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"fixthis/app/errcode"
)

func TestSaveBatchValidation(t *testing.T) {
	s := newTestStore(t)
	sess := mustSession(t, s)
	cases := []struct {
		name   string
		mutate func(*SaveBatchInput)
		code   errcode.Code
		want   string
	}{
		{"empty comment", func(in *SaveBatchInput) { in.Items[0].Comment = "   " }, errcode.InvalidInput, "comment is empty"},
		{"no items", func(in *SaveBatchInput) { in.Items = nil }, errcode.InvalidInput, "no items"},
		{"no workspace", func(in *SaveBatchInput) { in.WorkspaceID = "" }, errcode.InvalidInput, "workspaceId"},
		{"no draft id", func(in *SaveBatchInput) { in.Items[0].DraftItemID = "" }, errcode.InvalidInput, "draftItemId"},
		{"duplicate draft id", func(in *SaveBatchInput) { in.Items[1].DraftItemID = "d0" }, errcode.InvalidInput, "twice"},
		{"bad severity", func(in *SaveBatchInput) { in.Items[0].Severity = "urgent" }, errcode.InvalidInput, "severity"},
		{"bad target type", func(in *SaveBatchInput) { in.Items[0].Target = Target{Type: "pixel"} }, errcode.InvalidInput, "target type"},
		{"area without bounds", func(in *SaveBatchInput) { in.Items[0].Target = Target{Type: TargetArea} }, errcode.InvalidInput, "bounds"},
		{"empty area", func(in *SaveBatchInput) {
			in.Items[0].Target = Target{Type: TargetArea, Bounds: &Bounds{Left: 5, Top: 5, Right: 5, Bottom: 9}}
		}, errcode.InvalidInput, "empty"},
		{"node without uid", func(in *SaveBatchInput) { in.Items[0].Target.NodeUID = "" }, errcode.InvalidInput, "nodeUid"},
		{"bad nodes json", func(in *SaveBatchInput) { in.Screen.NodesJSON = []byte("{") }, errcode.InvalidInput, "nodes"},
		{"unknown session", func(in *SaveBatchInput) { in.SessionID = "nope" }, errcode.SessionNotFound, "SESSION_NOT_FOUND"},
		{"no screen", func(in *SaveBatchInput) { in.Screen = ScreenInput{} }, errcode.InvalidInput, "no screen to save its items on"},
		{"bounds beyond the screen", func(in *SaveBatchInput) {
			in.Items[1].Target = Target{Type: TargetArea, Bounds: &Bounds{Left: 0, Top: 0, Right: 1 << 62, Bottom: 1 << 62}}
		}, errcode.InvalidInput, `INVALID_INPUT: item "d1": target bounds (0,0)-(4611686018427387904,4611686018427387904) leave the 1080×2400 screen`},
		{"bounds one pixel low", func(in *SaveBatchInput) {
			in.Items[0].Target = Target{Type: TargetArea, Bounds: &Bounds{Left: 0, Top: 2000, Right: 10, Bottom: 2401}}
		}, errcode.InvalidInput, "leave the 1080×2400 screen"},
		{"unknown image artifact", func(in *SaveBatchInput) { in.Screen.ImageArtifact = strings.Repeat("a", 64) + ".png" }, errcode.ScreenNotFound, "SCREEN_NOT_FOUND"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := batchInput(t, sess.SessionID, "ws-"+tc.name, 2, false)
			tc.mutate(&in)
			_, err := s.SaveBatch(context.Background(), in)
			if err == nil {
				t.Fatal("want an error")
			}
			if c := errcode.Of(err); c != tc.code || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %s %v; want %s containing %q", c, err, tc.code, tc.want)
			}
		})
	}
	if got := countRows(t, s, `SELECT COUNT(*) FROM items`); got != 0 {
		t.Fatalf("rejected batches wrote %d items", got)
	}
}

func TestSaveBatchTargetsAndSeverity(t *testing.T) {
	s, _, in := newBatch(t, 3)
	in.Items[0].Target = Target{Type: TargetScreen, NodeUID: "ignored", Bounds: &Bounds{Right: 1, Bottom: 1}}
	in.Items[1].Target = Target{Type: TargetArea, Bounds: &Bounds{Left: 1, Top: 2, Right: 30, Bottom: 40}}
	in.Items[1].Severity = ""
	in.Items[2].Target.Ancestors = []byte(`[{"uid":"p1","class":"Card"}]`)
	res := mustSave(t, s, in)
	got := res.Items
	if got[0].Target.Type != TargetScreen || got[0].Target.Bounds != nil || got[0].Target.NodeUID != "" {
		t.Errorf("screen target kept extra fields: %+v", got[0].Target)
	}
	if got[1].Severity != SeverityMed || got[1].Target.Bounds.Right != 30 {
		t.Errorf("area item: %+v", got[1])
	}
	if got[2].Target.Snapshot == nil || got[2].Target.Snapshot.TestTag != "save_button" || string(got[2].Target.Ancestors) == "" {
		t.Errorf("node snapshot lost: %+v", got[2].Target)
	}
	for i, it := range got {
		if it.SequenceNumber != i+1 || it.Phase != PhaseDraft || it.Status != StatusOpen || it.Delivery != DeliveryDraft {
			t.Errorf("item %d: seq %d phase %s status %s", i, it.SequenceNumber, it.Phase, it.Status)
		}
		if it.ClientWorkspaceID != "ws" || it.ClientDraftItemID != fmt.Sprintf("d%d", i) || it.ScreenID != res.ScreenID {
			t.Errorf("item %d keys: %+v", i, it)
		}
	}
}

func TestSaveBatchIdempotency(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(t)
	sess := mustSession(t, s)
	first := mustSave(t, s, batchInput(t, sess.SessionID, "ws", 2, true))
	events := countRows(t, s, `SELECT COUNT(*) FROM events`)

	// Full duplicate, even without If-Match: no-op, same answer, no event.
	dup := mustSave(t, s, batchInput(t, sess.SessionID, "ws", 2, true))
	if !dup.NoOp || dup.ETag != first.ETag || dup.Items[1].ItemID != first.Items[1].ItemID {
		t.Fatalf("duplicate was not a no-op: %+v", dup)
	}
	if got := countRows(t, s, `SELECT COUNT(*) FROM events`); got != events {
		t.Fatalf("duplicate appended %d events", got-events)
	}

	// Partial retry: only d2 is new; the screen is reused even though the
	// preview id changed.
	in := batchInput(t, sess.SessionID, "ws", 3, true)
	in.FrozenID = "another-preview"
	in.IfMatch = first.ETag
	part := mustSave(t, s, in)
	if part.NoOp || part.ScreenID != first.ScreenID || len(part.Session.Items) != 3 || part.Items[2].SequenceNumber != 3 {
		t.Fatalf("partial retry: noop=%v screen %s vs %s, %d items", part.NoOp, part.ScreenID, first.ScreenID, len(part.Session.Items))
	}
	if n := countRows(t, s, `SELECT COUNT(*) FROM screens`); n != 1 {
		t.Fatalf("%d screens, want 1", n)
	}
	if part.Items[0].ItemID != first.Items[0].ItemID {
		t.Fatal("partial retry replaced an existing item")
	}

	// A retry that no longer has its frame is checked against the saved screen.
	far := batchInput(t, sess.SessionID, "ws", 4, false)
	far.Screen = ScreenInput{}
	far.IfMatch = "*"
	far.Items[3].Target = Target{Type: TargetArea, Bounds: &Bounds{Left: 0, Top: 0, Right: 1081, Bottom: 10}}
	if _, err := s.SaveBatch(ctx, far); errcode.Of(err) != errcode.InvalidInput || !strings.Contains(err.Error(), "leave the 1080×2400 screen") {
		t.Fatalf("retry with bounds beyond the saved screen: %v", err)
	}

	// Another workspace on the same frozen preview reuses the screen too.
	other := batchInput(t, sess.SessionID, "ws2", 1, true)
	other.IfMatch = part.ETag
	if res := mustSave(t, s, other); res.ScreenID != first.ScreenID || res.Items[0].SequenceNumber != 4 {
		t.Fatalf("same preview: screen %s seq %d", res.ScreenID, res.Items[0].SequenceNumber)
	}
	_ = ctx
}

func TestSaveBatchIfMatch(t *testing.T) {
	s := newTestStore(t)
	sess := mustSession(t, s)
	first := mustSave(t, s, batchInput(t, sess.SessionID, "ws", 1, false))
	cases := []struct {
		name    string
		ifMatch string
		ok      bool
	}{
		{"missing after first save", "", false},
		{"stale", `"0"`, false},
		{"garbage", `"zzz"`, false},
		{"force", "*", true},
	}
	etag := first.ETag
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := batchInput(t, sess.SessionID, fmt.Sprintf("ws-%d", i), 1, false)
			in.IfMatch = tc.ifMatch
			res, err := s.SaveBatch(context.Background(), in)
			if tc.ok {
				if err != nil {
					t.Fatal(err)
				}
				etag = res.ETag
				return
			}
			var stale *StaleDraftError
			if !errors.As(err, &stale) || errcode.Of(err) != errcode.StalePreview {
				t.Fatalf("want StaleDraftError, got %v", err)
			}
			if code := errcode.Of(err); code != errcode.StalePreview {
				t.Fatalf("code %s", code)
			}
			if stale.ServerDraft == nil || stale.ServerDraft.ETag != stale.ETag || !strings.HasPrefix(err.Error(), "STALE_PREVIEW") {
				t.Fatalf("server draft missing: %+v", stale)
			}
		})
	}
	// The current ETag, bare or weak, is accepted.
	forms := []func(string) string{
		func(e string) string { return e },
		func(e string) string { return strings.Trim(e, `"`) },
		func(e string) string { return "W/" + e },
	}
	for i, form := range forms {
		in := batchInput(t, sess.SessionID, fmt.Sprintf("ws-ok-%d", i), 1, false)
		in.IfMatch = form(etag)
		res := mustSave(t, s, in)
		etag = res.ETag
	}
}

func TestSaveBatchClosedSession(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(t)
	sess := mustSession(t, s)
	if _, err := s.CloseSession(ctx, sess.SessionID); err != nil {
		t.Fatal(err)
	}
	_, err := s.SaveBatch(ctx, batchInput(t, sess.SessionID, "ws", 1, false))
	if errcode.Of(err) != errcode.SessionClosed || !strings.HasPrefix(err.Error(), "SESSION_CLOSED: ") {
		t.Fatalf("got %v", err)
	}
	if code := errcode.Of(err); code != errcode.SessionClosed {
		t.Fatalf("code %s", code)
	}
}

// concurrentDuplicateSaves runs 50 identical saves spread over the handles
// and checks exactly one set of items exists.
func concurrentDuplicateSaves(t *testing.T, handles ...*Store) {
	sess := mustSession(t, handles[0])
	in := batchInput(t, sess.SessionID, "ws", 3, true)
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	noops := make(chan bool, 50)
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func(h *Store) {
			defer wg.Done()
			res, err := h.SaveBatch(context.Background(), in)
			if err != nil {
				errs <- err
				return
			}
			noops <- res.NoOp
		}(handles[i%len(handles)])
	}
	wg.Wait()
	close(errs)
	close(noops)
	for err := range errs {
		t.Errorf("save failed: %v", err)
	}
	writes := 0
	for n := range noops {
		if !n {
			writes++
		}
	}
	s := handles[0]
	if writes != 1 {
		t.Errorf("%d saves wrote, want exactly 1", writes)
	}
	if n := countRows(t, s, `SELECT COUNT(*) FROM items WHERE session_id = ?`, sess.SessionID); n != 3 {
		t.Errorf("%d items, want 3", n)
	}
	if n := countRows(t, s, `SELECT COUNT(*) FROM screens WHERE session_id = ?`, sess.SessionID); n != 1 {
		t.Errorf("%d screens, want 1", n)
	}
	if n := countRows(t, s, `SELECT COUNT(*) FROM events WHERE session_id = ? AND kind = 'items-saved'`, sess.SessionID); n != 1 {
		t.Errorf("%d save events, want 1", n)
	}
	if n := countRows(t, s, `SELECT MAX(sequence_number) FROM items WHERE session_id = ?`, sess.SessionID); n != 3 {
		t.Errorf("max sequence %d, want 3", n)
	}
}

func TestConcurrentDuplicateSavesOneHandle(t *testing.T) {
	concurrentDuplicateSaves(t, newTestStore(t))
}

func TestConcurrentDuplicateSavesTwoHandles(t *testing.T) {
	dir := t.TempDir()
	concurrentDuplicateSaves(t, openTest(t, dir), openTest(t, dir))
}

func TestSequenceNumbersNeverReused(t *testing.T) {
	ctx := context.Background()
	s, sess, items := storeWithItems(t, 3)
	for _, it := range items[1:] {
		if err := s.DeleteItem(ctx, sess.SessionID, it.ItemID); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.DeleteDraftItems(ctx, sess.SessionID); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetSession(ctx, sess.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	in := batchInput(t, sess.SessionID, "ws-new", 2, false)
	in.IfMatch = got.ETag
	res := mustSave(t, s, in)
	if res.Items[0].SequenceNumber != 4 || res.Items[1].SequenceNumber != 5 {
		t.Fatalf("new items numbered %d,%d; want 4,5", res.Items[0].SequenceNumber, res.Items[1].SequenceNumber)
	}
	// A reopened store keeps counting from the same place.
	s2 := reopen(t, s, "")
	in = batchInput(t, sess.SessionID, "ws-after-reopen", 1, false)
	in.IfMatch = "*"
	if r := mustSave(t, s2, in); r.Items[0].SequenceNumber != 6 {
		t.Fatalf("after reopen numbered %d, want 6", r.Items[0].SequenceNumber)
	}
}

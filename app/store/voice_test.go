package store

import (
	"context"
	"testing"

	"fixthis/app/errcode"
)

// An item made from speech keeps its origin; typed items and items saved before the
// column existed read back without one.
func TestVoiceOriginPersists(t *testing.T) {
	s := newTestStore(t)
	ctx := context.Background()
	sess := mustSession(t, s)
	in := batchInput(t, sess.SessionID, "v1", 2, false)
	long := make([]rune, MaxExcerpt+50)
	for i := range long {
		long[i] = 'é'
	}
	in.Items[0].Voice = &VoiceOrigin{VoiceSessionID: "v1", UnitID: in.Items[0].DraftItemID, Excerpt: string(long),
		SpanStartMs: 1200, SpanEndMs: 3400, Anchors: []string{"anchor_0001"}}
	res := mustSave(t, s, in)
	if res.Items[1].Voice != nil {
		t.Fatalf("a typed item has a voice origin: %+v", res.Items[1].Voice)
	}
	s = reopen(t, s, "")
	got, err := s.VoiceItem(ctx, sess.SessionID, "v1", in.Items[0].DraftItemID)
	if err != nil {
		t.Fatal(err)
	}
	v := got.Voice
	if v == nil || v.SpanStartMs != 1200 || v.SpanEndMs != 3400 || len(v.Anchors) != 1 || len([]rune(v.Excerpt)) != MaxExcerpt {
		t.Fatalf("origin after reopen = %+v", v)
	}
	if _, err := s.VoiceItem(ctx, sess.SessionID, "v1", in.Items[1].DraftItemID); err == nil {
		t.Fatal("a typed item answered as a unit's item")
	}
	drafts, err := s.VoiceDrafts(ctx, sess.SessionID, "v1")
	if err != nil || len(drafts) != 1 || drafts[0].ItemID != got.ItemID {
		t.Fatalf("voice drafts = %+v %v", drafts, err)
	}
	// update_unit: statement and anchors while a draft; refused once released.
	stmt := "Make the button green"
	up, err := s.UpdateVoiceItem(ctx, sess.SessionID, got.ItemID, &stmt, []string{"anchor_0002", "anchor_0001"})
	if err != nil || up.Comment != stmt || len(up.Voice.Anchors) != 2 {
		t.Fatalf("update = %+v %v", up, err)
	}
	if _, err := s.ReleaseToAgent(ctx, sess.SessionID, []string{got.ItemID}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UpdateVoiceItem(ctx, sess.SessionID, got.ItemID, &stmt, nil); errcode.Of(err) != errcode.ItemNotEditable {
		t.Fatalf("update after release: %v", err)
	}
}

package store

import (
	"context"
	"testing"

	"fixthis/app/errcode"
)

// A verified resolution keeps the agent's after-capture on the item; the user then
// confirms it, or reopens it and the agent's next wait carries the note.
func TestVerifiedResolutionConfirmAndReopen(t *testing.T) {
	ctx := WithAgent(context.Background(), "agent-1")
	s, sid, items := storeWithReleased(t, 2)
	drainBatches(t, s, sid)

	c := mustOK(s.SaveCapture(ctx, CaptureInput{Serial: "emu", Package: "p", Activity: "p/.A", Fingerprint: "f",
		Width: 10, Height: 20, PNG: []byte("\x89PNG fake"), NodesJSON: []byte(`[]`)}))(t)
	if got := mustOK(s.GetCapture(ctx, c.CaptureID))(t); got.Width != 10 || got.ImageArtifact == "" {
		t.Fatalf("capture read back as %+v", got)
	}
	if _, err := s.GetCapture(ctx, "c-nope"); errcode.Of(err) != errcode.CaptureNotFound {
		t.Fatalf("unknown capture: %v", err)
	}

	v := &Verification{CaptureID: c.CaptureID, RegionChange: 0.4, Summary: "the region changed"}
	for _, it := range items {
		mustOK(s.Claim(ctx, sid, it.ItemID, ""))(t)
		mustOK(s.Resolve(ctx, ResolveInput{SessionID: sid, ItemID: it.ItemID, Status: StatusResolved,
			Summary: "done", Verification: v}))(t)
	}
	got := mustOK(s.ConfirmFix(ctx, sid, items[0].ItemID))(t)
	if got.Verdict != VerdictVerified || got.Status != StatusResolved || got.Verification == nil || got.Verification.CaptureID != c.CaptureID {
		t.Fatalf("confirmed item %+v", got)
	}

	if _, err := s.Reopen(ctx, sid, items[1].ItemID, "  "); errcode.Of(err) != errcode.InvalidInput {
		t.Fatalf("reopen without a note: %v", err)
	}
	re := mustOK(s.Reopen(ctx, sid, items[1].ItemID, "Still too small"))(t)
	if re.Status != StatusOpen || re.Verdict != VerdictReopened || re.VerdictNote != "Still too small" || re.Phase != PhaseSent {
		t.Fatalf("reopened item %+v", re)
	}
	b := mustOK(s.NextAgentBatch(ctx, sid))(t)
	if b == nil || b.Kind != BatchKindReopen || len(b.Reopened) != 1 || b.Reopened[0].Note != "Still too small" {
		t.Fatalf("the wait got %+v", b)
	}
	if _, err := s.ConfirmFix(ctx, sid, items[1].ItemID); errcode.Of(err) != errcode.InvalidInput {
		t.Fatalf("confirming an open item: %v", err)
	}
	if _, err := s.Reopen(ctx, sid, items[1].ItemID, "again"); errcode.Of(err) != errcode.InvalidInput {
		t.Fatalf("reopening an open item: %v", err)
	}
}

func TestSettingsAndDeviceActions(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(t)
	if v := mustOK(s.GetSetting(ctx, "lastSerial"))(t); v != "" {
		t.Fatalf("unset setting = %q", v)
	}
	for _, v := range []string{"emulator-5554", "R58M"} {
		if err := s.SetSetting(ctx, "lastSerial", v); err != nil {
			t.Fatal(err)
		}
	}
	if v := mustOK(s.GetSetting(ctx, "lastSerial"))(t); v != "R58M" {
		t.Fatalf("setting = %q", v)
	}
	for i := 0; i < 60; i++ {
		if err := s.RecordDeviceAction(ctx, DeviceAction{Serial: "emu", Action: "tap", Detail: "tapped 'Save'", Outcome: "ok"}); err != nil {
			t.Fatal(err)
		}
	}
	acts := mustOK(s.DeviceActions(ctx, 0))(t)
	if len(acts) != 50 || acts[0].Seq >= acts[49].Seq || acts[49].Seq != 60 {
		t.Fatalf("got %d actions, first %d last %d", len(acts), acts[0].Seq, acts[len(acts)-1].Seq)
	}
	if later := mustOK(s.DeviceActions(ctx, 59))(t); len(later) != 1 || later[0].Seq != 60 {
		t.Fatalf("after 59: %+v", later)
	}
}

// drainBatches acknowledges every queued batch of a session.
func drainBatches(t *testing.T, s *Store, sessionID string) {
	t.Helper()
	for {
		b := mustOK(s.NextAgentBatch(context.Background(), sessionID))(t)
		if b == nil {
			return
		}
		mustOK(s.AckBatch(context.Background(), b.BatchID))(t)
	}
}

package feedback

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/png"
	"testing"

	"fixthis/app/store"
	"fixthis/app/voice"
)

// spokenService is a feedback core on a store alone: units anchored on a bare
// frame need no phone.
func spokenService(t *testing.T) (*Service, *store.Store) {
	t.Helper()
	st, err := store.Open(context.Background(), t.TempDir(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return New(Deps{Store: st}), st
}

// anchorSerial is the phone frameAnchor's frame was taken on.
const anchorSerial = "emulator-5556"

func frameAnchor(t *testing.T) voice.Anchor {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 40, 80))); err != nil {
		t.Fatal(err)
	}
	x, y := 10, 20
	return voice.Anchor{ID: "anchor_0001", Pointing: voice.Pointing{Kind: voice.AnchorClick, Mode: "select",
		Serial: anchorSerial, FrameID: "live-1", Frame: buf.Bytes(), X: &x, Y: &y}}
}

// TestSpokenUnitsFollowTheRevision: every spoken unit passes the store's revision
// check, and none is refused as stale however the session moved on (the named
// rule in saveSpoken); a unit reaching a closed session is refused in the
// interviewer's terms.
func TestSpokenUnitsFollowTheRevision(t *testing.T) {
	ctx := context.Background()
	s, st := spokenService(t)
	units := s.VoiceUnits()
	sess, err := st.CreateSession(ctx, "spoken")
	if err != nil {
		t.Fatal(err)
	}
	for i, unit := range []string{"unit_0001", "unit_0002", "unit_0003"} {
		if i == 1 {
			// Another window edits the session between two units.
			title := "renamed"
			if _, err := st.UpdateSession(ctx, sess.SessionID, store.SessionUpdate{Title: &title}); err != nil {
				t.Fatal(err)
			}
		}
		it, err := units.Record(ctx, voice.UnitRecord{UnitRef: voice.UnitRef{SessionID: sess.SessionID, VoiceSessionID: "v1",
			UnitID: unit}, Statement: "Make it blue", Anchors: []voice.Anchor{frameAnchor(t)}})
		if err != nil || it.SequenceNumber != i+1 {
			t.Fatalf("%s: %+v %v", unit, it, err)
		}
	}
	got, err := st.GetSession(ctx, sess.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Items) != 3 || len(got.Screens) != 1 || got.Items[0].Target.Type != store.TargetArea {
		t.Fatalf("items %+v screens %d", got.Items, len(got.Screens))
	}
	if got.Screens[0].Serial != anchorSerial {
		t.Fatalf("the spoken units' screen names phone %q, want %q", got.Screens[0].Serial, anchorSerial)
	}
	if _, err := st.CloseSession(ctx, sess.SessionID); err != nil {
		t.Fatal(err)
	}
	_, err = units.Record(ctx, voice.UnitRecord{UnitRef: voice.UnitRef{SessionID: sess.SessionID, VoiceSessionID: "v1",
		UnitID: "unit_0004"}, Statement: "and bigger", Anchors: []voice.Anchor{frameAnchor(t)}})
	var refusal *voice.Refusal
	if !errors.As(err, &refusal) || refusal.Reason != "session_closed" {
		t.Fatalf("a unit on a closed session: %v", err)
	}
}

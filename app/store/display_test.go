package store

import (
	"context"
	"testing"
)

// A screen keeps what the window list said at freeze time; screens saved by an older
// FixThis read back with an empty display.
func TestScreenDisplay(t *testing.T) {
	ctx := context.Background()
	s, sess, in := newBatch(t, 1)
	in.Screen.Display = ScreenDisplay{Rotation: 1, Dialog: "com.example/com.example.Main",
		Keyboard: &Bounds{Top: 1600, Right: 1080, Bottom: 2400}, Secure: true}
	res := mustSave(t, s, in)
	got, err := s.GetScreen(ctx, sess.SessionID, res.ScreenID)
	if err != nil {
		t.Fatal(err)
	}
	d := got.Display
	if d.Rotation != 1 || d.Dialog != "com.example/com.example.Main" || !d.Secure || d.Keyboard == nil || *d.Keyboard != *in.Screen.Display.Keyboard {
		t.Fatalf("display = %+v", d)
	}

	// A database from before the column (user_version 6) gains it with '{}'.
	s = reopen(t, s, `ALTER TABLE items DROP COLUMN voice_json; ALTER TABLE items DROP COLUMN audit_check; ALTER TABLE screens DROP COLUMN display_json; ALTER TABLE screens DROP COLUMN serial; ALTER TABLE captures DROP COLUMN display_json; PRAGMA user_version = 6`)
	got, err = s.GetScreen(ctx, sess.SessionID, res.ScreenID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Display != (ScreenDisplay{}) {
		t.Fatalf("old screen display = %+v", got.Display)
	}
}

// A screen and an agent's capture keep the display conditions they were taken under;
// captures from before the column read back without any.
func TestDisplayConditionsAreKept(t *testing.T) {
	ctx := context.Background()
	s, sess, in := newBatch(t, 1)
	cond := &DisplayConditions{Night: true, FontScale: 1.3, Locale: "ar", Density: 360}
	in.Screen.Display = ScreenDisplay{Conditions: cond}
	res := mustSave(t, s, in)
	got, err := s.GetScreen(ctx, sess.SessionID, res.ScreenID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Display.Conditions == nil || *got.Display.Conditions != *cond {
		t.Fatalf("screen conditions = %+v", got.Display.Conditions)
	}
	if line := got.Display.Conditions.Line(); line != "night, fontScale=1.3, locale=ar, density=360" {
		t.Fatalf("line %q", line)
	}

	off := 0.0
	c, err := s.SaveCapture(ctx, CaptureInput{Serial: "s", PNG: []byte("png"), Conditions: &DisplayConditions{AnimationScale: &off}})
	if err != nil {
		t.Fatal(err)
	}
	back, err := s.GetCapture(ctx, c.CaptureID)
	if err != nil {
		t.Fatal(err)
	}
	if back.Conditions == nil || back.Conditions.Line() != "animationScale=0" {
		t.Fatalf("capture conditions = %+v", back.Conditions)
	}
	plain, err := s.SaveCapture(ctx, CaptureInput{Serial: "s", PNG: []byte("png2")})
	if err != nil {
		t.Fatal(err)
	}
	if back, _ := s.GetCapture(ctx, plain.CaptureID); back.Conditions != nil {
		t.Fatalf("a capture without conditions read back %+v", back.Conditions)
	}

	// A database from before the column (user_version 8) gains it with '{}'.
	s = reopen(t, s, `ALTER TABLE captures DROP COLUMN display_json; ALTER TABLE items DROP COLUMN audit_check; ALTER TABLE screens DROP COLUMN serial; PRAGMA user_version = 8`)
	back, err = s.GetCapture(ctx, c.CaptureID)
	if err != nil || back.Conditions != nil {
		t.Fatalf("old capture: %+v %v", back, err)
	}
}

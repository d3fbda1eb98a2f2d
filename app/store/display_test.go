package store

import (
	"context"
	"testing"
)

// A screen keeps what the window list said at freeze time; screens saved by an older
// FixThis read back with an empty display.
func TestScreenDisplay(t *testing.T) {
	s := newTestStore(t)
	ctx := context.Background()
	sess := mustSession(t, s)
	in := batchInput(t, sess.SessionID, "ws", 1, false)
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

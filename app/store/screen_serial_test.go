package store

import (
	"context"
	"errors"
	"strings"
	"testing"

	"fixthis/app/errcode"
)

// A saved screen names the phone it was frozen on; every screen read returns it.
func TestScreenSerialIsStored(t *testing.T) {
	ctx := context.Background()
	s, sess, in := newBatch(t, 1)
	in.Screen.Serial = "emulator-5556"
	res := mustSave(t, s, in)
	one, err := s.GetScreen(ctx, sess.SessionID, res.ScreenID)
	if err != nil || one.Serial != "emulator-5556" {
		t.Fatalf("GetScreen serial = %q, %v", one.Serial, err)
	}
	back, err := s.GetSession(ctx, sess.SessionID)
	if err != nil || len(back.Screens) != 1 || back.Screens[0].Serial != "emulator-5556" {
		t.Fatalf("session screens = %+v, %v", back, err)
	}

	// The longest serial adb takes is kept whole.
	long := mustSession(t, s)
	in = batchInput(t, long.SessionID, "ws", 1, false)
	in.Screen.Serial = strings.Repeat("s", 255)
	res = mustSave(t, s, in)
	if got, _ := s.GetScreen(ctx, long.SessionID, res.ScreenID); got.Serial != in.Screen.Serial {
		t.Fatalf("a 255-character serial read back as %d characters", len(got.Serial))
	}

	// A screen of no known phone stores NULL, and reads back with no serial.
	plain := mustSession(t, s)
	res = mustSave(t, s, batchInput(t, plain.SessionID, "ws", 1, false))
	if got, _ := s.GetScreen(ctx, plain.SessionID, res.ScreenID); got.Serial != "" {
		t.Fatalf("serial of a screen saved without one = %q", got.Serial)
	}
	if n := countRows(t, s, `SELECT COUNT(*) FROM screens WHERE serial IS NULL`); n != 1 {
		t.Fatalf("%d screens without a serial stored NULL, want 1", n)
	}
}

// A serial goes through the rules of every stored string: refused with a short,
// coded error, and nothing of the batch is written.
func TestScreenSerialIsValidated(t *testing.T) {
	for _, tc := range []struct {
		name, serial, want string
	}{
		{"NUL", "emulator\x005554", "control character U+0000"},
		{"newline", "emulator-5554\nfake", "control character U+000A"},
		{"invalid UTF-8", "emu\xfflator", "not valid UTF-8"},
		{"one past adb's bound", strings.Repeat("s", 256), "at most 255"},
		{"a megabyte", strings.Repeat("s", 1<<20), "at most 255"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _, in := newBatch(t, 1)
			in.Screen.Serial = tc.serial
			_, err := s.SaveBatch(context.Background(), in)
			var ce *errcode.Error
			if !errors.As(err, &ce) || ce.Code != errcode.InvalidInput || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want INVALID_INPUT with %q", err, tc.want)
			}
			if len(err.Error()) > 200 {
				t.Fatalf("%d-byte refusal repeats the input: %.100s", len(err.Error()), err)
			}
			if n := countRows(t, s, `SELECT COUNT(*) FROM screens`) + countRows(t, s, `SELECT COUNT(*) FROM items`); n != 0 {
				t.Fatalf("a refused save left %d rows", n)
			}
		})
	}
}

// TestScreenSerialMigration: a database from before migration 0013 gains the
// column; its screens read with no serial and new saves record one.
func TestScreenSerialMigration(t *testing.T) {
	s := newTestStore(t)
	ctx := context.Background()
	sess := mustSession(t, s)
	old := mustSave(t, s, batchInput(t, sess.SessionID, "ws", 1, false))
	s = reopen(t, s, `ALTER TABLE screens DROP COLUMN serial; PRAGMA user_version = 12`)
	back, err := s.GetSession(ctx, sess.SessionID)
	if err != nil || len(back.Screens) != 1 || back.Screens[0].Serial != "" {
		t.Fatalf("old screens: %+v, %v", back, err)
	}
	in := batchInput(t, sess.SessionID, "ws2", 1, false)
	in.FrozenID, in.IfMatch, in.Screen.Serial = "preview-2", back.ETag, "R58M123ABC"
	res := mustSave(t, s, in)
	if res.ScreenID == old.ScreenID {
		t.Fatal("a new frozen screen reused the old one")
	}
	if got, err := s.GetScreen(ctx, sess.SessionID, res.ScreenID); err != nil || got.Serial != "R58M123ABC" {
		t.Fatalf("new screen serial = %q, %v", got.Serial, err)
	}
}

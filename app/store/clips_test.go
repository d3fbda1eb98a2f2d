package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"fixthis/app/errcode"
)

func clipInput(sessionID string, seed int) ClipInput {
	return ClipInput{SessionID: sessionID, Serial: "emulator-5554", Source: "h264",
		MP4: []byte(fmt.Sprintf("mp4 bytes %d", seed)), Strip: []byte(fmt.Sprintf("png bytes %d", seed)),
		DurationMs: 5000, Frames: 42, Width: 720, Height: 1600, Timeline: []byte(`{"durationMs":5000,"changes":[]}`)}
}

func TestClipOnItemAndAsScreenNote(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(t)
	sess := mustSession(t, s)
	c, err := s.SaveClip(ctx, clipInput(sess.SessionID, 1))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{c.Path, c.FrameStripPath} {
		st, err := os.Stat(filepath.Join(s.loc.Project, p))
		if err != nil || st.Mode().Perm() != 0o600 {
			t.Fatalf("clip file %s: %v %v", p, st, err)
		}
	}
	in := batchInput(t, sess.SessionID, "ws", 1, true)
	in.Items[0].ClipID = c.ClipID
	res := mustSave(t, s, in)
	got := res.Items[0].Clip
	if got == nil || got.ClipID != c.ClipID || got.DurationMs != 5000 || got.Path != c.Path || got.FrameStripPath == "" {
		t.Fatalf("saved item's clip: %+v", got)
	}

	// A clip alone is a screen note: no frozen screen needed.
	c2, err := s.SaveClip(ctx, clipInput(sess.SessionID, 2))
	if err != nil {
		t.Fatal(err)
	}
	note := SaveBatchInput{SessionID: sess.SessionID, WorkspaceID: "ws", IfMatch: "*",
		Items: []BatchItem{{DraftItemID: "note", Target: Target{Type: TargetScreen}, Severity: "med",
			Comment: "the transition is janky", ClipID: c2.ClipID}}}
	res = mustSave(t, s, note)
	if it := res.Items[0]; it.ScreenID != "" || it.Clip == nil || it.Clip.ClipID != c2.ClipID {
		t.Fatalf("screen note: %+v", it)
	}

	// A clip of another session, or none, is refused.
	other := mustSession(t, s)
	c3, err := s.SaveClip(ctx, clipInput(other.SessionID, 3))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{c3.ClipID, "clip-nope"} {
		bad := note
		bad.Items = []BatchItem{{DraftItemID: "bad-" + id, Target: Target{Type: TargetScreen}, Severity: "med", Comment: "x", ClipID: id}}
		if _, err := s.SaveBatch(ctx, bad); errcode.Of(err) != errcode.ClipNotFound {
			t.Errorf("clip %s: got %v", id, err)
		}
	}

	// Garbage collection keeps the session's clips.
	s.opts.Now = func() time.Time { return time.Now().Add(48 * time.Hour) }
	if _, err := s.CollectGarbage(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(s.loc.Project, c2.Path)); err != nil {
		t.Errorf("GC removed a session's clip: %v", err)
	}
}

func TestClipDiskFullSavesNothing(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(t)
	sess := mustSession(t, s)
	fillDisk(t, s)
	in := clipInput(sess.SessionID, 9)
	in.Timeline = []byte(fmt.Sprintf(`{"pad":%q}`, make([]byte, 200_000)))
	_, err := s.SaveClip(ctx, in)
	if errcode.Of(err) != errcode.StorageFull {
		t.Fatalf("got %v", err)
	}
	if n := countRows(t, s, `SELECT COUNT(*) FROM clips`); n != 0 {
		t.Fatalf("a failed clip left %d rows", n)
	}
	tmp, _ := filepath.Glob(filepath.Join(s.loc.ArtifactsDir(), "*", ".tmp-*"))
	if len(tmp) != 0 {
		t.Fatalf("half-written files left: %v", tmp)
	}
}

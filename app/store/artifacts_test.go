package store

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fixthis/app/errcode"
)

func TestPutArtifact(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(t)
	data := testPNG(t, 7)
	key, err := s.PutArtifact(ctx, data, ".PNG")
	if err != nil {
		t.Fatal(err)
	}
	if !artifactKey.MatchString(key) || !strings.HasSuffix(key, ".png") {
		t.Fatalf("key %q", key)
	}
	p, _ := s.ArtifactPath(key)
	if filepath.Base(filepath.Dir(p)) != key[:2] {
		t.Fatalf("not sharded: %s", p)
	}
	again, err := s.PutArtifact(ctx, data, "png")
	if err != nil || again != key {
		t.Fatalf("second put %q %v", again, err)
	}
	got, err := s.ReadArtifact(ctx, key)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("read back: %v", err)
	}
	entries, _ := os.ReadDir(filepath.Dir(p))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".tmp-") {
			t.Fatalf("temp file left: %s", e.Name())
		}
	}
	for _, bad := range []string{"../../fixthis.db", strings.Repeat("a", 64) + ".png/../x", "ABC.png", ""} {
		if _, err := s.ArtifactPath(bad); errcode.Of(err) != errcode.InvalidInput {
			t.Errorf("key %q accepted", bad)
		}
	}
	if _, err := s.ReadArtifact(ctx, strings.Repeat("b", 64)+".png"); errcode.Of(err) != errcode.ScreenNotFound {
		t.Fatalf("missing artifact: %v", err)
	}
}

func TestCollectGarbage(t *testing.T) {
	ctx := context.Background()
	now := time.Now()
	s := openWith(t, t.TempDir(), Options{Now: func() time.Time { return now }, GCGrace: time.Minute})
	sess := mustSession(t, s)
	res := mustSave(t, s, batchInput(t, sess.SessionID, "ws", 2, true))
	orphan, _ := s.PutArtifact(ctx, []byte("orphan"), "bin")
	fresh, _ := s.PutArtifact(ctx, []byte("just written for a save in flight"), "bin")
	old := now.Add(-2 * time.Minute)
	for _, k := range []string{orphan} {
		p, _ := s.ArtifactPath(k)
		os.Chtimes(p, old, old)
	}
	// Referenced artifacts are old too: only references protect them.
	d := mustOK(s.ReadItem(ctx, sess.SessionID, res.Items[0].ItemID))(t)
	for _, k := range []string{d.Screen.ImageArtifact, d.Screen.NodesArtifact, d.Item.CropArtifact} {
		p, _ := s.ArtifactPath(k)
		os.Chtimes(p, old, old)
	}
	gc, err := s.CollectGarbage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if gc.Removed != 1 || gc.KeptInGrace != 1 {
		t.Fatalf("gc %+v", gc)
	}
	for k, want := range map[string]bool{orphan: false, fresh: true, d.Screen.ImageArtifact: true, d.Item.CropArtifact: true, d.Screen.NodesArtifact: true} {
		p, _ := s.ArtifactPath(k)
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s exists=%v, want %v", k, err == nil, want)
		}
	}
	// Deleting the session makes its artifacts garbage once out of grace.
	if err := s.DeleteSession(ctx, sess.SessionID); err != nil {
		t.Fatal(err)
	}
	now = now.Add(time.Hour)
	gc, err = s.CollectGarbage(ctx)
	if err != nil || gc.Removed != 5 {
		t.Fatalf("after delete: %+v %v", gc, err)
	}
}

package store

import (
	"context"
	"testing"
	"time"

	"fixthis/app/errcode"
)

func TestRecordAppBuild(t *testing.T) {
	s := newTestStore(t)
	ctx := context.Background()
	sess := mustSession(t, s)
	got, _ := s.GetSession(ctx, sess.SessionID)
	if got.AppBuild != nil {
		t.Fatalf("a new session has build %+v", got.AppBuild)
	}
	at := time.Date(2026, 12, 1, 8, 29, 7, 0, time.UTC)
	b := AppBuild{Package: "com.fixthis.demo", VersionName: "2.5.0", VersionCode: 250, LastUpdateTime: at, GitHead: "1a2b3c4d", GitDirty: true, RecordedAt: at}
	if err := s.RecordAppBuild(ctx, sess.SessionID, b); err != nil {
		t.Fatal(err)
	}
	got, _ = s.GetSession(ctx, sess.SessionID)
	if got.AppBuild == nil || *got.AppBuild != b {
		t.Errorf("recorded build = %+v, want %+v", got.AppBuild, b)
	}
	if got.ETag != sess.ETag {
		t.Errorf("recording a build changed the ETag from %s to %s", sess.ETag, got.ETag)
	}
	if err := s.RecordAppBuild(ctx, "missing", b); errcode.Of(err) != errcode.SessionNotFound {
		t.Errorf("unknown session: %v", err)
	}
}

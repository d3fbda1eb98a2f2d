package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"fixthis/app/errcode"
)

func TestOpenCreatesPrivateFiles(t *testing.T) {
	dir := t.TempDir()
	s := openTest(t, dir)
	sess := mustSession(t, s)
	mustSave(t, s, batchInput(t, sess.SessionID, "ws", 1, true))
	loc := s.Locations()
	want := map[string]os.FileMode{
		loc.DataDir():           0o700,
		loc.ArtifactsDir():      0o700,
		loc.Database():          0o600,
		loc.Database() + "-wal": 0o600,
		loc.Database() + "-shm": 0o600,
	}
	for p, mode := range want {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != mode {
			t.Errorf("%s is %v, want %v", p, st.Mode().Perm(), mode)
		}
	}
	err := filepath.WalkDir(loc.ArtifactsDir(), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		st, _ := d.Info()
		if want := os.FileMode(0o600); d.IsDir() {
			want = 0o700
			if st.Mode().Perm() != want {
				t.Errorf("%s is %v", p, st.Mode().Perm())
			}
		} else if st.Mode().Perm() != want {
			t.Errorf("%s is %v", p, st.Mode().Perm())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var journal string
	var version, fk int
	s.rdb.QueryRow(`PRAGMA journal_mode`).Scan(&journal)
	s.rdb.QueryRow(`PRAGMA user_version`).Scan(&version)
	s.wdb.QueryRow(`PRAGMA foreign_keys`).Scan(&fk)
	if journal != "wal" || version != SchemaVersion() || version < 1 || fk != 1 {
		t.Fatalf("journal %s, user_version %d (want %d), foreign_keys %d", journal, version, SchemaVersion(), fk)
	}
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	dir := t.TempDir()
	s := openTest(t, dir)
	if _, err := s.wdb.Exec(fmt.Sprintf(`PRAGMA user_version = %d`, SchemaVersion()+1)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err := Open(context.Background(), dir, Options{})
	if err == nil || !strings.Contains(err.Error(), "newer than this FixThis") {
		t.Fatalf("got %v", err)
	}
}

func TestMigrationsNumbered(t *testing.T) {
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range ms {
		if m.version != i+1 {
			t.Fatalf("%s has version %d", m.name, m.version)
		}
	}
}

func integrityOK(t *testing.T, s *Store) {
	t.Helper()
	var res string
	if err := s.rdb.QueryRow(`PRAGMA integrity_check`).Scan(&res); err != nil || res != "ok" {
		t.Fatalf("integrity_check: %q %v", res, err)
	}
}

func TestDiskFullIsClearAndHarmless(t *testing.T) {
	ctx := context.Background()
	s, _, in := newBatch(t, 50)
	fillDisk(t, s)
	for i := range in.Items {
		in.Items[i].Comment = strings.Repeat("much longer comment ", 150)
	}
	_, err := s.SaveBatch(ctx, in)
	if errcode.Of(err) != errcode.StorageFull || !strings.Contains(err.Error(), "disk full while saving batch") {
		t.Fatalf("got %v", err)
	}
	if code := errcode.Of(err); code != errcode.StorageFull {
		t.Fatalf("code %s", code)
	}
	if _, err := s.wdb.Exec(`PRAGMA max_page_count = 1073741823`); err != nil {
		t.Fatal(err)
	}
	integrityOK(t, s)
	if n := countRows(t, s, `SELECT COUNT(*) FROM items`); n != 0 {
		t.Fatalf("a failed save left %d items", n)
	}
	mustSave(t, s, in)
}

func TestReadOnlyDatabaseIsClear(t *testing.T) {
	s := newTestStore(t)
	if _, err := s.wdb.Exec(`PRAGMA query_only = 1`); err != nil {
		t.Fatal(err)
	}
	_, err := s.CreateSession(context.Background(), "x")
	if errcode.Of(err) != errcode.StorageReadOnly || !strings.Contains(err.Error(), "read-only while creating session") {
		t.Fatalf("got %v", err)
	}
}

func TestStorageErrMapping(t *testing.T) {
	cases := []struct {
		err  error
		want errcode.Code
	}{
		{&os.PathError{Op: "write", Path: "x", Err: syscall.ENOSPC}, errcode.StorageFull},
		{&os.PathError{Op: "open", Path: "x", Err: syscall.EROFS}, errcode.StorageReadOnly},
		{&os.PathError{Op: "open", Path: "x", Err: syscall.EACCES}, errcode.StorageReadOnly},
		{errcode.New(errcode.ItemNotFound, "item x"), errcode.ItemNotFound},
	}
	for _, tc := range cases {
		if got := storageErr("saving artifact", tc.err); errcode.Of(got) != tc.want {
			t.Errorf("%v mapped to %v", tc.err, got)
		}
	}
}

// TestDataDirIgnoresItself: the store writes .fixthis/.gitignore ("*") so the
// folder never shows in git status.
func TestDataDirIgnoresItself(t *testing.T) {
	dir := t.TempDir()
	s := openTest(t, dir)
	defer s.Close()
	b, err := os.ReadFile(filepath.Join(dir, ".fixthis", ".gitignore"))
	if err != nil || !strings.Contains(string(b), "\n*\n") {
		t.Fatalf(".gitignore: %q %v", b, err)
	}
}

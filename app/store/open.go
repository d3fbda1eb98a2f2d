// Package store keeps FixThis feedback sessions in one SQLite database per
// project (<project>/.fixthis/fixthis.db, WAL) plus content-addressed
// artifacts, shared safely by every FixThis process on the machine. All
// business rules of the session lifecycle live here; HTTP and MCP handlers
// decode, call one method, and encode.
package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"time"

	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver
)

// Options tune a Store; the zero value is the production configuration.
type Options struct {
	// PollInterval is how often PRAGMA data_version is checked for commits
	// by other processes. Default 100 ms.
	PollInterval time.Duration
	// GCGrace protects artifacts younger than this from CollectGarbage, so a
	// file written just before its transaction is never collected. Default 1 h.
	GCGrace time.Duration
	// BusyTimeout bounds how long a write waits for another process's write
	// lock. Default 10 s.
	BusyTimeout time.Duration
	// Now replaces the clock in tests.
	Now func() time.Time
}

func (o *Options) defaults() {
	if o.PollInterval <= 0 {
		o.PollInterval = 100 * time.Millisecond
	}
	if o.GCGrace <= 0 {
		o.GCGrace = time.Hour
	}
	if o.BusyTimeout <= 0 {
		o.BusyTimeout = 10 * time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
}

// Store is one process's handle on a project's feedback database. It is safe
// for concurrent use; several Stores (in one or many processes) may share a
// project.
type Store struct {
	loc  Locations
	opts Options
	// wdb has exactly one connection: writers queue in Go instead of spinning
	// in SQLite's busy handler, and every write transaction is BEGIN IMMEDIATE
	// so it never fails half-way upgrading a read lock.
	wdb *sql.DB
	rdb *sql.DB

	watch *watcher

	closeOnce sync.Once
}

// Open opens (creating if needed) the store of projectDir and brings its
// schema up to date.
func Open(ctx context.Context, projectDir string, opts Options) (*Store, error) {
	opts.defaults()
	loc, err := NewLocations(projectDir)
	if err != nil {
		return nil, err
	}
	if err := prepareDirs(loc); err != nil {
		return nil, err
	}
	s := &Store{loc: loc, opts: opts}
	if s.wdb, err = openDB(loc.Database(), opts, true); err != nil {
		return nil, storageErr("opening "+loc.Database(), err)
	}
	s.wdb.SetMaxOpenConns(1)
	if err := s.migrate(ctx); err != nil {
		s.wdb.Close()
		return nil, storageErr("preparing "+loc.Database(), err)
	}
	if s.rdb, err = openDB(loc.Database(), opts, false); err != nil {
		s.wdb.Close()
		return nil, storageErr("opening "+loc.Database(), err)
	}
	s.rdb.SetMaxOpenConns(4)
	if err := s.pruneChanges(ctx); err != nil {
		s.Close()
		return nil, err
	}
	if s.watch, err = newWatcher(ctx, s); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// prepareDirs creates .fixthis (0700) and artifacts (0700) and the database
// file itself (0600) before SQLite opens it: SQLite gives the -wal and -shm
// files the database file's mode, so all three end up 0600.
func prepareDirs(loc Locations) error {
	for _, dir := range []string{loc.DataDir(), loc.ArtifactsDir()} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return storageErr("creating "+dir, err)
		}
		if err := restrict(dir); err != nil {
			return err
		}
	}
	// The folder ignores itself, so it never shows in `git status` and cannot
	// be committed by accident (it holds tokens and screenshots).
	ignore := filepath.Join(loc.DataDir(), ".gitignore")
	if _, err := os.Stat(ignore); errors.Is(err, fs.ErrNotExist) {
		if err := os.WriteFile(ignore, []byte("# FixThis data: never commit it.\n*\n"), 0o600); err != nil {
			return storageErr("creating "+ignore, err)
		}
	}
	f, err := os.OpenFile(loc.Database(), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return storageErr("opening "+loc.Database(), err)
	}
	if err := f.Close(); err != nil {
		return storageErr("opening "+loc.Database(), err)
	}
	return restrict(loc.Database())
}

// restrict removes group and other permissions. It only ever narrows the
// mode, so a directory the user made read-only stays read-only and is
// reported as such instead of being silently made writable.
func restrict(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return storageErr("checking "+path, err)
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		if err := os.Chmod(path, perm&^0o077); err != nil {
			return storageErr("restricting "+path, err)
		}
	}
	return nil
}

// openDB builds the DSN. synchronous=FULL: in WAL mode NORMAL may lose the
// last commits on power loss, and a save the console acknowledged is the
// user's work; FULL costs one WAL fsync per commit (a few ms at most), which
// the user-paced write rate easily affords and which matches the fsync the
// artifacts already get.
func openDB(path string, opts Options, writer bool) (*sql.DB, error) {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", opts.BusyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(FULL)")
	q.Add("_pragma", "foreign_keys(1)")
	if writer {
		q.Set("_txlock", "immediate")
	}
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetConnMaxIdleTime(0)
	db.SetConnMaxLifetime(0)
	return db, nil
}

// Close stops the watcher and closes the database.
func (s *Store) Close() error {
	var err error
	s.closeOnce.Do(func() {
		if s.watch != nil {
			s.watch.stop()
		}
		if s.rdb != nil {
			err = errors.Join(err, s.rdb.Close())
		}
		if s.wdb != nil {
			err = errors.Join(err, s.wdb.Close())
		}
	})
	return err
}

// Locations returns where this store keeps its files.
func (s *Store) Locations() Locations { return s.loc }

// tx is the context of one write transaction: it collects the changes to
// publish once the commit succeeded.
type tx struct {
	*sql.Tx
	now     time.Time
	changed bool
}

// write runs fn in one BEGIN IMMEDIATE transaction. op names the operation
// for errors ("saving batch"). Watchers in this process are woken right after
// the commit, without waiting for the next poll.
func (s *Store) write(ctx context.Context, op string, fn func(*tx) error) error {
	sqlTx, err := s.wdb.BeginTx(ctx, nil)
	if err != nil {
		return storageErr(op, err)
	}
	t := &tx{Tx: sqlTx, now: s.opts.Now().UTC().Truncate(time.Millisecond)}
	if err := fn(t); err != nil {
		_ = sqlTx.Rollback()
		return storageErr(op, err)
	}
	if err := sqlTx.Commit(); err != nil {
		return storageErr(op, err)
	}
	if t.changed && s.watch != nil {
		s.watch.kick()
	}
	return nil
}

// read runs fn in one read transaction, so multi-query reads see a single
// snapshot of the database.
func (s *Store) read(ctx context.Context, op string, fn func(*sql.Tx) error) error {
	sqlTx, err := s.rdb.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return storageErr(op, err)
	}
	defer sqlTx.Rollback()
	if err := fn(sqlTx); err != nil {
		return storageErr(op, err)
	}
	return nil
}

// newID returns a random UUID v4 string; handoff prompts show its first 8
// characters, so the leading characters must be random too.
func newID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(fmt.Sprintf("store: crypto/rand failed: %v", err))
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

func millis(t time.Time) int64 { return t.UnixMilli() }

func fromMillis(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

func fromNullMillis(ms sql.NullInt64) *time.Time {
	if !ms.Valid {
		return nil
	}
	t := fromMillis(ms.Int64)
	return &t
}

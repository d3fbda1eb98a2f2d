package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"time"
)

// watcher turns commits into Change callbacks. Commits by other processes
// are noticed by polling PRAGMA data_version on a dedicated connection (it
// changes whenever another connection commits); commits through this Store
// kick the loop directly so they are published without waiting for a poll.
// Either way the change feed table is the source, so every subscriber sees
// every change once, in commit order.
type watcher struct {
	s      *Store
	conn   *sql.Conn
	kickCh chan struct{}
	cancel context.CancelFunc
	done   chan struct{}

	mu     sync.Mutex
	subs   map[int]func(Change)
	nextID int
	lastID int64
}

func newWatcher(ctx context.Context, s *Store) (*watcher, error) {
	conn, err := s.rdb.Conn(ctx)
	if err != nil {
		return nil, storageErr("opening watch connection", err)
	}
	w := &watcher{s: s, conn: conn, kickCh: make(chan struct{}, 1), done: make(chan struct{}), subs: map[int]func(Change){}}
	if err := conn.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM changes`).Scan(&w.lastID); err != nil {
		conn.Close()
		return nil, storageErr("reading change feed", err)
	}
	loopCtx, cancel := context.WithCancel(context.Background())
	w.cancel = cancel
	go w.loop(loopCtx)
	return w, nil
}

func (w *watcher) kick() {
	select {
	case w.kickCh <- struct{}{}:
	default:
	}
}

func (w *watcher) stop() {
	w.cancel()
	<-w.done
	w.conn.Close()
}

func (w *watcher) loop(ctx context.Context) {
	defer close(w.done)
	ticker := time.NewTicker(w.s.opts.PollInterval)
	defer ticker.Stop()
	var version int64 = -1
	for {
		select {
		case <-ctx.Done():
			return
		case <-w.kickCh:
			w.publish(ctx)
		case <-ticker.C:
			var v int64
			if err := w.conn.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&v); err != nil {
				continue // a transient read error; the next tick retries
			}
			if v != version {
				version = v
				w.publish(ctx)
			}
		}
	}
}

// publish delivers every change-feed row past the last one delivered.
func (w *watcher) publish(ctx context.Context) {
	for {
		changes, err := w.fetch(ctx)
		if err != nil || len(changes) == 0 {
			return
		}
		w.mu.Lock()
		w.lastID = changes[len(changes)-1].ID
		subs := make([]func(Change), 0, len(w.subs))
		for _, fn := range w.subs {
			subs = append(subs, fn)
		}
		w.mu.Unlock()
		for _, c := range changes {
			for _, fn := range subs {
				fn(c)
			}
		}
		if len(changes) < fetchLimit {
			return
		}
	}
}

const fetchLimit = 500

func (w *watcher) fetch(ctx context.Context) ([]Change, error) {
	w.mu.Lock()
	after := w.lastID
	w.mu.Unlock()
	rows, err := w.conn.QueryContext(ctx,
		`SELECT id, session_id, kind, at FROM changes WHERE id > ? ORDER BY id LIMIT ?`, after, fetchLimit)
	if err != nil {
		return nil, fmt.Errorf("read change feed: %w", err)
	}
	return appendRows(nil, rows, scanChange)
}

func scanChange(sc interface{ Scan(...any) error }) (Change, error) {
	var c Change
	var at int64
	err := sc.Scan(&c.ID, &c.SessionID, &c.Kind, &at)
	c.At = fromMillis(at)
	return c, err
}

// Watch calls fn for every change committed from now on, by this process or
// any other, until ctx is done. Another process's commit arrives within about
// one PollInterval (100 ms); this Store's own commits arrive immediately.
// fn runs on the watcher goroutine and must not block: hand work off to a
// channel or goroutine.
func (s *Store) Watch(ctx context.Context, fn func(Change)) {
	w := s.watch
	w.mu.Lock()
	id := w.nextID
	w.nextID++
	w.subs[id] = fn
	w.mu.Unlock()
	go func() {
		select {
		case <-ctx.Done():
		case <-w.done:
		}
		w.mu.Lock()
		delete(w.subs, id)
		w.mu.Unlock()
	}()
}

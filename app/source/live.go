package source

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"
)

// Live is the project's source index while FixThis runs: restored from the last run's
// cache (or built) in the background at start-up, then kept current by polling file
// modification times. Its zero value with Dir set is ready to Run.
type Live struct {
	// Dir is the project; CachePath, when set, is where the index is kept between
	// runs (written 0600).
	Dir       string
	CachePath string
	Log       *slog.Logger

	mu     sync.RWMutex
	idx    *Index
	reason Readiness
	// app is the installed app's own index (SetAppIndex), given again to every
	// index this Live holds: a cached index restored or a rebuilt one starts without it.
	app *AppIndex
}

// Get is the index and whether it is ready (nil while it builds).
func (s *Live) Get() (*Index, Readiness) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.idx, s.reason
}

func (s *Live) set(idx *Index, reason Readiness) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if idx != nil && idx.AppIndex() != s.app {
		idx.SetAppIndex(s.app)
		reason = ReadinessOf(idx, nil)
	}
	s.idx, s.reason = idx, reason
}

// AppIndex is the app's index given with SetAppIndex, nil when none.
func (s *Live) AppIndex() *AppIndex {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.app
}

// SetAppIndex merges the installed app's own source index into the project's (nil
// drops it), now and into every index built or restored later. With an empty project
// folder, the app's index alone makes the index ready.
func (s *Live) SetAppIndex(ai *AppIndex) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.app = ai
	if s.idx != nil {
		s.idx.SetAppIndex(ai)
		s.reason = ReadinessOf(s.idx, nil)
	}
}

// Run builds the index and keeps it current until ctx ends.
func (s *Live) Run(ctx context.Context) {
	if s.Log == nil {
		s.Log = slog.Default()
	}
	s.set(nil, Building)
	start := time.Now()
	idx, err := s.loadCached(ctx)
	if err != nil {
		idx, err = Build(ctx, s.Dir)
	}
	if err != nil {
		if ctx.Err() == nil {
			s.Log.Warn("source index failed", "dir", s.Dir, "err", err)
			s.set(nil, ReadinessOf(nil, err))
		}
		return
	}
	st, ready := idx.Stats(), ReadinessOf(idx, nil)
	if ready == NoSources {
		s.Log.Info("no Android sources to index; prompts will carry no source candidates", "dir", s.Dir, "reason", st.Reason)
	} else {
		s.Log.Info("source index ready", "files", st.Files, "composables", st.Composables, "took", time.Since(start).Round(time.Millisecond))
	}
	s.set(idx, ready)
	s.saveCache(idx)
	_ = idx.Watch(ctx, time.Second, func(changed []string) {
		if r := ReadinessOf(idx, nil); r == Ready {
			s.set(idx, r)
		}
		s.saveCache(idx)
	})
}

// loadCachedIndex restores the last run's index and re-reads only the files that
// changed since (a cold build of a large project takes seconds; this takes a stat each).
func (s *Live) loadCached(ctx context.Context) (*Index, error) {
	if s.CachePath == "" {
		return nil, os.ErrNotExist
	}
	data, err := os.ReadFile(s.CachePath)
	if err != nil {
		return nil, err
	}
	idx, _, err := Restore(ctx, data, s.Dir)
	if err != nil {
		return nil, fmt.Errorf("cached source index: %w", err)
	}
	return idx, nil
}

func (s *Live) saveCache(idx *Index) {
	if s.CachePath != "" {
		_ = idx.WriteCache(s.CachePath) // failing only costs the next start a rebuild
	}
}

// LastEdit is the newest indexed source file's time, zero while the index builds.
func (s *Live) LastEdit() time.Time {
	idx, _ := s.Get()
	if idx == nil {
		return time.Time{}
	}
	return idx.NewestModTime()
}

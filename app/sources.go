package app

import (
	"context"
	"errors"
	"os"
	"sync"
	"time"

	"fixthis/app/source"
)

// sourceIndex holds the project's source index, built in the background at start-up
// and kept current by polling file modification times.
type sourceIndex struct {
	mu     sync.RWMutex
	idx    *source.Index
	reason source.Readiness
}

func (s *sourceIndex) get() (*source.Index, source.Readiness) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.idx, s.reason
}

func (s *sourceIndex) set(idx *source.Index, reason source.Readiness) {
	s.mu.Lock()
	s.idx, s.reason = idx, reason
	s.mu.Unlock()
}

func (a *App) runSourceIndex(ctx context.Context) {
	a.sources.set(nil, source.Building)
	start := time.Now()
	idx, err := a.loadCachedIndex(ctx)
	if err != nil {
		idx, err = source.Build(ctx, a.projectDir)
	}
	if err != nil {
		if ctx.Err() == nil {
			a.log.Warn("source index failed", "dir", a.projectDir, "err", err)
			a.sources.set(nil, source.ReadinessOf(nil, err))
		}
		return
	}
	st, ready := idx.Stats(), source.ReadinessOf(idx, nil)
	if ready == source.NoSources {
		a.log.Info("no Android sources to index; prompts will carry no source candidates", "dir", a.projectDir, "reason", st.Reason)
	} else {
		a.log.Info("source index ready", "files", st.Files, "composables", st.Composables, "took", time.Since(start).Round(time.Millisecond))
	}
	a.sources.set(idx, ready)
	a.saveIndexCache(idx)
	_ = idx.Watch(ctx, time.Second, func(changed []string) {
		if r := source.ReadinessOf(idx, nil); r == source.Ready {
			a.sources.set(idx, r)
		}
		a.saveIndexCache(idx)
	})
}

// loadCachedIndex restores the last run's index and re-reads only the files that
// changed since (a cold build of a large project takes seconds; this takes a stat each).
func (a *App) loadCachedIndex(ctx context.Context) (*source.Index, error) {
	if a.store == nil {
		return nil, os.ErrNotExist
	}
	data, err := os.ReadFile(a.store.Locations().SourceIndexCache())
	if err != nil {
		return nil, err
	}
	idx, err := source.Unmarshal(data)
	if err != nil || idx.Root() != a.projectDir {
		return nil, errors.New("cached source index is stale")
	}
	if _, err := idx.Refresh(ctx); err != nil {
		return nil, err
	}
	return idx, nil
}

func (a *App) saveIndexCache(idx *source.Index) {
	if a.store == nil {
		return
	}
	data, err := idx.Marshal()
	if err != nil {
		return
	}
	path := a.store.Locations().SourceIndexCache()
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err == nil {
		_ = os.Rename(tmp, path)
	}
}

package app

import (
	"context"
	"sync"
	"time"

	"fixthis/app/source"
)

// sourceIndex holds the project's source index, built in the background at start-up
// and kept current by polling file modification times.
type sourceIndex struct {
	mu     sync.RWMutex
	idx    *source.Index
	reason string // why there are no candidates: index-building | index-error | no-project-dir
}

func (s *sourceIndex) get() (*source.Index, string) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.idx, s.reason
}

func (s *sourceIndex) set(idx *source.Index, reason string) {
	s.mu.Lock()
	s.idx, s.reason = idx, reason
	s.mu.Unlock()
}

func (a *App) runSourceIndex(ctx context.Context) {
	a.sources.set(nil, "index-building")
	start := time.Now()
	idx, err := source.Build(ctx, a.projectDir)
	if err != nil {
		if ctx.Err() == nil {
			a.log.Warn("source index failed", "dir", a.projectDir, "err", err)
			a.sources.set(nil, "index-error")
		}
		return
	}
	st := idx.Stats()
	if st.Files == 0 {
		a.log.Info("no Android sources to index; prompts will carry no source candidates", "dir", a.projectDir, "reason", st.Reason)
		a.sources.set(idx, "no-project-dir")
	} else {
		a.log.Info("source index ready", "files", st.Files, "composables", st.Composables, "took", time.Since(start).Round(time.Millisecond))
		a.sources.set(idx, "")
	}
	_ = idx.Watch(ctx, time.Second, func(changed []string) {
		if idx.Stats().Files > 0 {
			a.sources.set(idx, "")
		}
	})
}

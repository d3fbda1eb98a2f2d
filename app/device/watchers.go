package device

import (
	"sync"
	"sync/atomic"
)

// watchers counts the consoles watching the live preview (open event streams). The
// loop captures only while someone watches and parks until that number moves.
type watchers struct {
	n       atomic.Int64
	mu      sync.Mutex
	changed chan struct{} // closed and replaced at every change
}

func (w *watchers) count() int64 { return w.n.Load() }

func (w *watchers) changes() <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.changed
}

func (w *watchers) add(delta int64) {
	w.n.Add(delta)
	w.mu.Lock()
	close(w.changed)
	w.changed = make(chan struct{})
	w.mu.Unlock()
}

// Watch registers a console that watches the preview; call the returned function
// when it goes away.
func (p *Preview) Watch() (done func()) {
	p.watchers.add(1)
	var once sync.Once
	return func() { once.Do(func() { p.watchers.add(-1) }) }
}

// Watched reports whether a console watches (an open event stream): other loops
// that follow the device, such as the app's focus, idle without one.
func (p *Preview) Watched() bool { return p.watchers.count() > 0 }

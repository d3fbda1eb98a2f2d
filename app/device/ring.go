package device

import "sync"

// Ring keeps the newest few values of a kind (live preview frames, frozen frames) so
// a URL or a save can still find one by id for a while; older ones fall off.
type Ring[T any] struct {
	mu    sync.Mutex
	items []T // oldest first
	limit int
	id    func(T) string
}

// NewRing returns a ring of at most limit values, found by id.
func NewRing[T any](limit int, id func(T) string) *Ring[T] {
	return &Ring[T]{limit: limit, id: id}
}

// Add keeps v, dropping the oldest value when the ring is full.
func (r *Ring[T]) Add(v T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.items = append(r.items, v)
	if len(r.items) > r.limit {
		r.items = append(r.items[:0:0], r.items[len(r.items)-r.limit:]...)
	}
}

// Get finds a kept value by id.
func (r *Ring[T]) Get(id string) (T, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, v := range r.items {
		if r.id(v) == id {
			return v, true
		}
	}
	var zero T
	return zero, false
}

// Latest returns the newest value.
func (r *Ring[T]) Latest() (T, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.items) == 0 {
		var zero T
		return zero, false
	}
	return r.items[len(r.items)-1], true
}

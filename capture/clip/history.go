// Package clip keeps the last seconds of the live screen and cuts them into a clip:
// an H.264 MP4 (muxed in Go), a frame strip PNG and a frame timeline an agent can read.
// It holds no HTTP and no store: the app feeds it pictures and writes what it cuts.
package clip

import (
	"sync"
	"time"
)

// Entry is one picture kept in a History: when it arrived, whether decoding can
// start at it, and its size in bytes (what the memory bound counts).
type Entry[T any] struct {
	At    time.Time
	Key   bool
	Bytes int
	Value T
}

// History keeps the pictures of the last Window, starting at a key frame so the
// oldest kept picture can be decoded: it holds everything since the newest key frame
// at or before now−Window. MaxBytes bounds it: past it the oldest pictures up to the
// next key frame are dropped (and NeedKey turns true when there is no next one). A
// Hold keeps the pictures since it began, for a recording longer than Window.
type History[T any] struct {
	Window   time.Duration
	MaxBytes int

	mu      sync.Mutex
	entries []Entry[T]
	bytes   int
	needKey bool
	broken  bool // the newest picture was cut short: keep nothing until a key frame
	holds   map[*hold]bool
}

type hold struct{ since time.Time }

// NewHistory returns a history of window, bounded to maxBytes.
func NewHistory[T any](window time.Duration, maxBytes int) *History[T] {
	return &History[T]{Window: window, MaxBytes: maxBytes, holds: map[*hold]bool{}}
}

// Add keeps a picture. Pictures before the first key frame are dropped: they
// cannot be decoded.
func (h *History[T]) Add(e Entry[T]) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if (len(h.entries) == 0 || h.broken) && !e.Key {
		return
	}
	if e.Key {
		h.needKey, h.broken = false, false
	}
	h.entries = append(h.entries, e)
	h.bytes += e.Bytes
	h.trimLocked(e.At)
}

// Break says the newest picture was cut short: it is dropped, and so is every
// picture up to the next key frame (they refer to it).
func (h *History[T]) Break() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if n := len(h.entries); n > 0 && !h.broken {
		h.bytes -= h.entries[n-1].Bytes
		h.entries = h.entries[:n-1]
	}
	h.broken = true
}

// Reset forgets every picture (the stream broke: what follows needs a new key frame).
func (h *History[T]) Reset() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.entries, h.bytes = nil, 0
}

func (h *History[T]) trimLocked(now time.Time) {
	keepFrom := now.Add(-h.Window)
	for hd := range h.holds {
		if hd.since.Before(keepFrom) {
			keepFrom = hd.since
		}
	}
	// Drop up to the newest key frame at or before keepFrom.
	cut := 0
	for i := 1; i < len(h.entries); i++ {
		if h.entries[i].At.After(keepFrom) {
			break
		}
		if h.entries[i].Key {
			cut = i
		}
	}
	h.dropLocked(cut)
	for h.MaxBytes > 0 && h.bytes > h.MaxBytes && len(h.entries) > 1 {
		next := 0
		for i := 1; i < len(h.entries); i++ {
			if h.entries[i].Key {
				next = i
				break
			}
		}
		if next == 0 {
			// One group of pictures outgrew the bound: keep it (it is all that
			// decodes) and ask for a fresh key frame.
			h.needKey = true
			return
		}
		h.dropLocked(next)
	}
}

func (h *History[T]) dropLocked(n int) {
	if n <= 0 {
		return
	}
	for _, e := range h.entries[:n] {
		h.bytes -= e.Bytes
	}
	h.entries = append(h.entries[:0:0], h.entries[n:]...)
}

// NeedKey reports that the pictures since the last key frame outgrew MaxBytes: the
// source should send a key frame so the history can let the old ones go.
func (h *History[T]) NeedKey() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.needKey
}

// Bytes is the memory the kept pictures take (their Bytes summed).
func (h *History[T]) Bytes() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.bytes
}

// Newest is the newest kept picture.
func (h *History[T]) Newest() (Entry[T], bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.entries) == 0 {
		var zero Entry[T]
		return zero, false
	}
	return h.entries[len(h.entries)-1], true
}

// Len is the number of kept pictures.
func (h *History[T]) Len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.entries)
}

// Since returns the pictures a clip from `from` needs: from the newest key frame at
// or before from (so the first picture decodes) to the newest. ok is false when the
// history does not reach back to from.
func (h *History[T]) Since(from time.Time) (out []Entry[T], ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	start := -1
	for i, e := range h.entries {
		if e.At.After(from) {
			break
		}
		if e.Key {
			start = i
		}
	}
	if start < 0 {
		// Nothing at or before from: the history starts later. A clip can still
		// start at its first key frame if that is all there is.
		if len(h.entries) == 0 {
			return nil, false
		}
		return append([]Entry[T](nil), h.entries...), false
	}
	return append([]Entry[T](nil), h.entries[start:]...), true
}

// Hold keeps every picture from now on, whatever Window says, until release is
// called; maxAge bounds a hold whose release never comes.
func (h *History[T]) Hold(now time.Time, maxAge time.Duration) (release func()) {
	hd := &hold{since: now}
	h.mu.Lock()
	h.holds[hd] = true
	h.mu.Unlock()
	var once sync.Once
	rel := func() {
		once.Do(func() {
			h.mu.Lock()
			delete(h.holds, hd)
			h.mu.Unlock()
		})
	}
	time.AfterFunc(maxAge, rel)
	return rel
}

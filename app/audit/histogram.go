package audit

// colorCounts is a histogram of 24-bit colours: an open-addressing table, since the
// contrast checks count every pixel of every text and image node and Go's map cost
// most of the audit's time on photos (thousands of distinct colours per node).
type colorCounts struct {
	keys   []uint32 // colour+1, 0 = empty slot
	counts []int
	used   []int // slots in use, to clear and iterate without scanning the table
}

func (h *colorCounts) reset() {
	for _, i := range h.used {
		h.keys[i] = 0
	}
	h.used = h.used[:0]
	if h.keys == nil {
		h.grow(1024)
	}
}

func (h *colorCounts) add(c uint32, n int) {
	if 2*len(h.used) >= len(h.keys) {
		h.grow(2 * len(h.keys))
	}
	mask := uint32(len(h.keys) - 1)
	for i := (c * 2654435761) & mask; ; i = (i + 1) & mask {
		switch h.keys[i] {
		case c + 1:
			h.counts[i] += n
			return
		case 0:
			h.keys[i], h.counts[i] = c+1, n
			h.used = append(h.used, int(i))
			return
		}
	}
}

// grow rehashes into a table of size slots (a power of two).
func (h *colorCounts) grow(size int) {
	old, oldCounts, oldUsed := h.keys, h.counts, h.used
	h.keys, h.counts, h.used = make([]uint32, size), make([]int, size), make([]int, 0, size/2)
	for _, i := range oldUsed {
		h.add(old[i]-1, oldCounts[i])
	}
}

// each calls f for every colour counted, in the order first seen.
func (h *colorCounts) each(f func(c uint32, n int)) {
	for _, i := range h.used {
		f(h.keys[i]-1, h.counts[i])
	}
}

func (h *colorCounts) len() int { return len(h.used) }

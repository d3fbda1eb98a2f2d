package h264

// bitWriter packs the RBSP of one NAL unit, most significant bit first.
type bitWriter struct {
	buf  []byte
	acc  uint64 // pending bits, right-aligned
	nacc uint   // how many bits acc holds (< 8 after every flush)
}

// u writes the low n bits of v (n ≤ 32).
func (w *bitWriter) u(n uint, v uint32) {
	w.acc = w.acc<<n | uint64(v)&(1<<n-1)
	w.nacc += n
	for w.nacc >= 8 {
		w.nacc -= 8
		w.buf = append(w.buf, byte(w.acc>>w.nacc))
	}
	w.acc &= 1<<w.nacc - 1
}

func (w *bitWriter) flag(b bool) {
	if b {
		w.u(1, 1)
	} else {
		w.u(1, 0)
	}
}

// ue writes an unsigned Exp-Golomb code: M zeros, then v+1 in M+1 bits.
func (w *bitWriter) ue(v uint32) {
	x := uint64(v) + 1
	n := uint(0)
	for t := x; t > 1; t >>= 1 {
		n++
	}
	w.u(n, 0)
	w.u(n+1, uint32(x))
}

// se writes a signed Exp-Golomb code (1 → 1, -1 → 2, 2 → 3, …).
func (w *bitWriter) se(v int32) {
	if v > 0 {
		w.ue(uint32(2*v - 1))
	} else {
		w.ue(uint32(-2 * v))
	}
}

// alignZero pads with zero bits to the next byte boundary (pcm_alignment_zero_bit).
func (w *bitWriter) alignZero() {
	if w.nacc > 0 {
		w.u(8-w.nacc, 0)
	}
}

// bytes appends whole bytes; the writer must be byte aligned.
func (w *bitWriter) bytes(p []byte) { w.buf = append(w.buf, p...) }

// trailing writes rbsp_trailing_bits: a one, then zeros to the byte boundary.
func (w *bitWriter) trailing() {
	w.u(1, 1)
	w.alignZero()
}

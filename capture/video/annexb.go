package video

import (
	"bytes"
	"time"
)

// AccessUnit is one coded picture as an Annex-B byte sequence: every NAL unit behind
// a four-byte start code, the stream's SPS and PPS in front of a key frame.
type AccessUnit struct {
	Data []byte
	// Key marks an IDR picture: decoding can start here.
	Key bool
	// Arrived is when the first byte of the picture reached this process: the
	// transfer from the device counts toward the latency measured from it.
	Arrived time.Time
	// AfterBreak: the picture before this one was cut short (see splitter.Broken),
	// so this one and those up to the next key frame do not decode as sent.
	AfterBreak bool
}

// NAL unit types the splitter looks at.
const (
	nalSlice = 1
	nalIDR   = 5
	nalSEI   = 6
	nalSPS   = 7
	nalPPS   = 8
	nalAUD   = 9
)

var startCode4 = []byte{0, 0, 0, 1}

// splitter cuts an Annex-B byte stream into access units (H.264 7.4.1.2.3): a new
// unit starts at an AUD, SEI, SPS or PPS, or at a slice whose first_mb_in_slice is 0,
// once the current unit already holds a slice.
//
// A NAL unit is complete only when the next start code arrives. screenrecord writes
// nothing while the screen is still, so waiting for it would hold the last picture
// back until the next change; Flush lets the reader end a unit after a quiet spell.
type splitter struct {
	pending []byte // the NAL unit being received, from its start code
	cur     []byte // complete NAL units of the access unit being built
	curVCL  bool
	curKey  bool
	synced  bool // a start code has been seen, so pending is NAL data
	checked bool // pending's header has been looked at
	// pendingAt is when pending's first byte arrived; curAt the same for cur.
	pendingAt, curAt time.Time
	flushed          bool // the last unit was ended by Flush: the next bytes must be a start code
	// Corrupt counts bytes dropped before a start code, or because a flushed unit
	// turned out to go on.
	Corrupt int
	// Broken is set when a flushed unit turned out to go on: the pictures that follow
	// refer to one the decoder got incomplete, so a key frame is needed. Breaks counts
	// how often that happened.
	Broken bool
	Breaks int
	// breakPending marks the next unit emitted as AfterBreak.
	breakPending bool
}

// Write feeds stream bytes and returns the access units they completed.
func (s *splitter) Write(p []byte, now time.Time) []AccessUnit {
	if s.flushed && len(p) > 0 {
		s.flushed = false
		if !hasStartCodePrefix(p) {
			// The flushed picture was cut short: what follows belongs to it and is
			// useless alone. Drop it up to the next start code.
			s.synced = false
			s.Broken = true
			s.Breaks++
			s.breakPending = true
		}
	}
	var out []AccessUnit
	scanFrom := len(s.pending) - 3
	if scanFrom < 0 {
		scanFrom = 0
	}
	s.pending = append(s.pending, p...)
	if !s.synced {
		i := bytes.Index(s.pending, startCode4[1:])
		if i < 0 {
			keep := min(len(s.pending), 2)
			s.Corrupt += len(s.pending) - keep
			s.pending = append(s.pending[:0], s.pending[len(s.pending)-keep:]...)
			return nil
		}
		if i > 0 && s.pending[i-1] == 0 {
			i-- // a four-byte start code
		}
		s.Corrupt += i
		s.pending = s.pending[i:]
		s.synced = true
		s.pendingAt = now
		scanFrom = 3
	}
	for {
		out = s.checkOpen(now, out)
		j := bytes.Index(s.pending[max(scanFrom, 3):], startCode4[1:])
		if j < 0 {
			break
		}
		end := max(scanFrom, 3) + j
		s.nal(s.pending[:end])
		s.pending = s.pending[end:]
		s.pendingAt = now
		s.checked = false
		scanFrom = 3
	}
	return out
}

// checkOpen ends the current access unit as soon as the header of the NAL unit being
// received shows it opens the next one, so a finished picture is not held back until
// that NAL unit is complete.
func (s *splitter) checkOpen(now time.Time, out []AccessUnit) []AccessUnit {
	if s.checked {
		return out
	}
	body := bytes.TrimLeft(s.pending, "\x00")
	if len(body) < 3 {
		return out // start code's 01, NAL header, first slice byte
	}
	s.checked = true
	if opensAccessUnit(body[1:]) && s.curVCL {
		out = append(out, s.emit())
	}
	return out
}

// opensAccessUnit tells from a NAL unit's first bytes whether it starts a new access
// unit once the current one holds a slice (H.264 7.4.1.2.3).
func opensAccessUnit(nal []byte) bool {
	switch typ := nal[0] & 0x1f; {
	case typ == nalSlice || typ == nalIDR:
		// first_mb_in_slice is ue(v); it is 0 exactly when its first bit is 1.
		return len(nal) > 1 && nal[1]&0x80 != 0
	case typ == nalAUD || typ == nalSEI || typ == nalSPS || typ == nalPPS || (typ >= 14 && typ <= 18):
		return true
	}
	return false
}

// Flush ends the access unit being received, treating its last NAL unit as complete.
func (s *splitter) Flush(now time.Time) []AccessUnit {
	if !s.synced || len(s.pending) <= 3 {
		return nil
	}
	out := s.checkOpen(now, nil)
	s.nal(s.pending)
	s.pending = s.pending[:0]
	s.checked = false
	if s.curVCL {
		out = append(out, s.emit())
	}
	s.flushed = true
	return out
}

// nal adds one complete NAL unit, given with its start code (and perhaps trailing
// zero bytes), to the current access unit.
func (s *splitter) nal(raw []byte) {
	body := bytes.TrimLeft(raw, "\x00")[1:] // after 00 00 01
	for len(body) > 0 && body[len(body)-1] == 0 {
		body = body[:len(body)-1]
	}
	if len(body) == 0 {
		return
	}
	typ := body[0] & 0x1f
	if len(s.cur) == 0 {
		s.curAt = s.pendingAt
	}
	s.cur = append(s.cur, startCode4...)
	s.cur = append(s.cur, body...)
	s.curVCL = s.curVCL || typ == nalSlice || typ == nalIDR
	s.curKey = s.curKey || typ == nalIDR
}

func (s *splitter) emit() AccessUnit {
	au := AccessUnit{Data: s.cur, Key: s.curKey, Arrived: s.curAt, AfterBreak: s.breakPending}
	s.cur, s.curVCL, s.curKey, s.breakPending = nil, false, false, false
	return au
}

// midNAL reports whether a NAL unit has started and not ended yet.
func (s *splitter) midNAL() bool { return s.synced && len(s.pending) > 3 }

func hasStartCodePrefix(p []byte) bool {
	return bytes.HasPrefix(p, startCode4[1:]) || bytes.HasPrefix(p, startCode4) ||
		// Too short to tell yet: only zeros so far.
		len(bytes.TrimLeft(p, "\x00")) == 0
}

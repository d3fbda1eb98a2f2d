package clip

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"time"

	mp4 "github.com/yapingcat/gomedia/go-mp4"
)

// Sample is one coded picture of a clip: an Annex-B access unit and when it arrived.
type Sample struct {
	Data []byte
	Key  bool
	At   time.Time
}

// preRollStep is the media time each picture before the clip's start takes: the
// pictures from the key frame up to the start only rebuild the first picture shown,
// so they pass in a few milliseconds instead of stretching the clip.
const preRollStep = time.Millisecond

// Timing places samples on a clip's timeline: the media time (ms) of each sample and
// the clip's duration. Pictures before from are pre-roll (one millisecond each);
// the rest keep their arrival time relative to from; the last one lasts until to.
func Timing(samples []Sample, from, to time.Time) (dts []uint64, durationMs uint64) {
	dts = make([]uint64, len(samples))
	var next uint64 // the smallest time the next sample may take
	for i, s := range samples {
		t := uint64(0)
		if d := s.At.Sub(from); d > 0 {
			t = uint64(d / time.Millisecond)
		}
		t = max(t, next)
		dts[i] = t
		next = t + uint64(preRollStep/time.Millisecond)
	}
	durationMs = uint64(max(to.Sub(from), 0) / time.Millisecond)
	if len(dts) > 0 {
		durationMs = max(durationMs, dts[len(dts)-1]+1)
	}
	return dts, durationMs
}

// MuxMP4 writes samples (the first one a key frame carrying SPS and PPS) as an
// H.264 MP4 of width×height, at millisecond timescale, lasting from from to to.
func MuxMP4(samples []Sample, width, height int, from, to time.Time) ([]byte, uint64, error) {
	if len(samples) == 0 {
		return nil, 0, errors.New("mux mp4: no pictures")
	}
	if !samples[0].Key {
		return nil, 0, errors.New("mux mp4: the first picture is not a key frame")
	}
	dts, duration := Timing(samples, from, to)
	size := 0
	for _, s := range samples {
		size += len(s.Data)
	}
	// The samples plus the boxes (a few dozen bytes a picture), so the file is not
	// copied as it grows.
	buf := memFile{data: make([]byte, 0, size+64*len(samples)+4096)}
	mux, err := mp4.CreateMp4Muxer(&buf)
	if err != nil {
		return nil, 0, fmt.Errorf("mux mp4: %w", err)
	}
	track := mux.AddVideoTrack(mp4.MP4_CODEC_H264, mp4.WithVideoWidth(uint32(width)), mp4.WithVideoHeight(uint32(height)))
	var scratch []byte
	for i, s := range samples {
		// The muxer rewrites start codes into lengths in place: give it a copy, as
		// the history's pictures are shared with viewers and later cuts.
		scratch = append(scratch[:0], s.Data...)
		if err := mux.Write(track, scratch, dts[i], dts[i]); err != nil {
			return nil, 0, fmt.Errorf("mux mp4: picture %d: %w", i, err)
		}
	}
	if err := mux.WriteTrailer(); err != nil {
		return nil, 0, fmt.Errorf("mux mp4: %w", err)
	}
	out := buf.data
	// The muxer gives the last picture one tick; it lasts until the clip's end.
	last := uint32(duration - dts[len(dts)-1])
	if err := setLastDuration(out, last, uint32(duration)); err != nil {
		return nil, 0, fmt.Errorf("mux mp4: %w", err)
	}
	return out, duration, nil
}

// setLastDuration rewrites the finished file's last stts delta and the durations of
// mvhd, tkhd, mdhd and elst (all version 0 at millisecond timescale, as written).
func setLastDuration(f []byte, lastDelta, total uint32) error {
	found := map[string]bool{}
	var walk func(b []byte) error
	walk = func(b []byte) error {
		for len(b) >= 8 {
			size := int(binary.BigEndian.Uint32(b))
			typ := string(b[4:8])
			if size < 8 || size > len(b) {
				return fmt.Errorf("box %q has a bad size %d", typ, size)
			}
			body := b[8:size]
			switch typ {
			case "moov", "trak", "mdia", "minf", "stbl", "edts":
				if err := walk(body); err != nil {
					return err
				}
			case "mvhd", "mdhd":
				if body[0] != 0 || len(body) < 20 {
					return fmt.Errorf("%s version %d", typ, body[0])
				}
				binary.BigEndian.PutUint32(body[16:], total)
				found[typ] = true
			case "tkhd":
				if body[0] != 0 || len(body) < 24 {
					return fmt.Errorf("tkhd version %d", body[0])
				}
				binary.BigEndian.PutUint32(body[20:], total)
				found[typ] = true
			case "elst":
				if body[0] != 0 || len(body) < 12 {
					return fmt.Errorf("elst version %d", body[0])
				}
				binary.BigEndian.PutUint32(body[8:], total)
				found[typ] = true
			case "stts":
				n := int(binary.BigEndian.Uint32(body[4:]))
				if n == 0 || len(body) < 8+8*n {
					return errors.New("stts has no entries")
				}
				e := body[8+8*(n-1):]
				if binary.BigEndian.Uint32(e) != 1 {
					// The last picture shares an entry with earlier ones: split it.
					return errors.New("stts: the last entry holds more than one picture")
				}
				binary.BigEndian.PutUint32(e[4:], max(lastDelta, 1))
				found[typ] = true
			}
			b = b[size:]
		}
		return nil
	}
	if err := walk(f); err != nil {
		return err
	}
	for _, typ := range []string{"mvhd", "tkhd", "mdhd", "stts"} {
		if !found[typ] {
			return fmt.Errorf("no %s box", typ)
		}
	}
	return nil
}

// memFile is an in-memory io.WriteSeeker for the muxer, which seeks back to write
// the mdat size.
type memFile struct {
	data []byte
	pos  int
}

func (m *memFile) Write(p []byte) (int, error) {
	if end := m.pos + len(p); end > len(m.data) {
		if end <= cap(m.data) {
			m.data = m.data[:end]
		} else {
			m.data = append(m.data, make([]byte, end-len(m.data))...)
		}
	}
	copy(m.data[m.pos:], p)
	m.pos += len(p)
	return len(p), nil
}

func (m *memFile) Seek(off int64, whence int) (int64, error) {
	var base int64
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		base = int64(m.pos)
	case io.SeekEnd:
		base = int64(len(m.data))
	}
	n := base + off
	if n < 0 {
		return 0, errors.New("seek before start")
	}
	m.pos = int(n)
	return n, nil
}

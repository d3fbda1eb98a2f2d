// Package video streams a device's screen as H.264 with Android's own screenrecord
// (`screenrecord --output-format=h264 … -` over exec:, no APK): it restarts the
// recorder before its time limit without a gap, cuts the byte stream into access
// units stamped with their arrival, and keeps what a viewer joining late needs (the
// parameter sets and the pictures since the last key frame).
package video

import (
	"bytes"
	"context"
	"sync"
	"time"

	"fixthis/adb"
)

// Options tune a Stream; zero values take the defaults.
type Options struct {
	Width, Height int // video size, multiples of 16 (see Fit)
	BitRate       int // 0: BitRate(Width, Height)
	// TimeLimit is each screenrecord run's --time-limit (DefaultTimeLimit).
	TimeLimit time.Duration
	// RestartLead starts the next run this long before the current one stops, so
	// its first key frame is ready when the old run ends (3 s, at most half the limit).
	RestartLead time.Duration
	// Quiet ends a picture when no byte arrived for this long (60 ms): screenrecord
	// sends nothing after a picture until the screen changes again.
	Quiet time.Duration
	// StartTimeout bounds the wait for the first picture (5 s).
	StartTimeout time.Duration
	Logf         func(format string, args ...any)
}

func (o *Options) defaults() {
	if o.BitRate == 0 {
		o.BitRate = BitRate(o.Width, o.Height)
	}
	if o.TimeLimit <= 0 {
		o.TimeLimit = DefaultTimeLimit
	}
	if o.RestartLead <= 0 {
		o.RestartLead = 3 * time.Second
	}
	o.RestartLead = min(o.RestartLead, o.TimeLimit/2)
	if o.Quiet <= 0 {
		o.Quiet = 60 * time.Millisecond
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = 5 * time.Second
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
}

// maxGOPBytes bounds the pictures kept for late joiners; past it the recorder is
// restarted for a fresh key frame.
const maxGOPBytes = 64 << 20

// Stats count what a stream relayed.
type Stats struct {
	Pictures, KeyFrames, Bytes int64
	Restarts                   int // screenrecord runs after the first
	LastError                  string
}

// Stream relays one device's screen. Subscribe to receive pictures.
type Stream struct {
	dev  adb.Handle
	opts Options
	cmd  string
	done chan struct{}

	mu     sync.Mutex
	params []byte        // latest SPS and PPS NAL units
	gop    []AccessUnit  // since the last key frame
	gopLen int           // bytes in gop
	subs   map[*sub]bool // live subscribers
	stats  Stats
	err    error
	rekey  bool // restart soon for a fresh key frame
	// learnt is the quiet pause the last run settled on (0: Options.Quiet).
	learnt time.Duration
}

func (s *Stream) quiet() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return max(s.learnt, s.opts.Quiet)
}

type sub struct{ ch chan AccessUnit }

// Open starts screenrecord on dev and waits for its first picture. When the
// device cannot stream, the error is an *UnsupportedError with the reason.
func Open(ctx context.Context, dev adb.Handle, opts Options) (*Stream, error) {
	opts.defaults()
	s := &Stream{dev: dev, opts: opts, done: make(chan struct{}), subs: map[*sub]bool{}}
	s.cmd = Command(opts.Width, opts.Height, opts.BitRate, opts.TimeLimit)
	first, au, err := s.begin(ctx)
	if err != nil {
		return nil, err
	}
	s.publish(au)
	go s.serve(ctx, first)
	return s, nil
}

// begin starts a run and waits for its first picture, which must be a key frame.
func (s *Stream) begin(ctx context.Context) (*run, AccessUnit, error) {
	r, err := startRun(ctx, s.dev, s.cmd, s.quiet())
	if err != nil {
		return nil, AccessUnit{}, err
	}
	t := time.NewTimer(s.opts.StartTimeout)
	defer t.Stop()
	select {
	case au, ok := <-r.aus:
		if !ok {
			return nil, AccessUnit{}, r.failure(0)
		}
		return r, au, nil
	case <-t.C:
		r.stop()
		for range r.aus {
		}
		return nil, AccessUnit{}, r.failure(s.opts.StartTimeout)
	case <-ctx.Done():
		r.stop()
		return nil, AccessUnit{}, ctx.Err()
	}
}

// serve relays cur's pictures and hands over to a fresh run before cur's time limit.
func (s *Stream) serve(ctx context.Context, cur *run) {
	defer close(s.done)
	defer func() {
		s.mu.Lock()
		for sb := range s.subs {
			close(sb.ch)
		}
		s.subs = map[*sub]bool{}
		s.mu.Unlock()
	}()
	type started struct {
		r   *run
		au  AccessUnit
		err error
	}
	var next chan started // non-nil while a successor is starting
	restart := time.NewTimer(time.Until(cur.started.Add(s.opts.TimeLimit - s.opts.RestartLead)))
	defer restart.Stop()
	startNext := func() {
		if next != nil {
			return
		}
		next = make(chan started, 1)
		go func(ch chan started) {
			r, au, err := s.begin(ctx)
			ch <- started{r, au, err}
		}(next)
	}
	for {
		select {
		case au, ok := <-cur.aus:
			if !ok {
				// cur reached its limit (or failed) before its successor was ready.
				if ctx.Err() != nil {
					return
				}
				if next == nil {
					startNext()
				}
				st := <-next
				next = nil
				if st.err != nil {
					s.fail(st.err)
					return
				}
				cur = st.r
				s.restarted(st.au)
				restart.Reset(time.Until(cur.started.Add(s.opts.TimeLimit - s.opts.RestartLead)))
				continue
			}
			s.publish(au)
			s.mu.Lock()
			s.learnt = max(s.learnt, time.Duration(cur.quiet.Load()))
			s.mu.Unlock()
			if cur.broken.Swap(false) || s.needKey() {
				// A picture was cut short: restart for a key frame.
				restart.Reset(0)
			}
		case <-restart.C:
			startNext()
		case st := <-next:
			next = nil
			if st.err != nil {
				// The old run still streams; try again when it ends.
				s.opts.Logf("video: restart screenrecord on %s: %v", s.dev.Serial(), st.err)
				continue
			}
			old := cur
			cur = st.r
			old.stop()
			go func() {
				for range old.aus {
				}
			}()
			s.restarted(st.au)
			restart.Reset(time.Until(cur.started.Add(s.opts.TimeLimit - s.opts.RestartLead)))
		case <-ctx.Done():
			cur.stop()
			if next != nil {
				if st := <-next; st.r != nil {
					st.r.stop()
				}
			}
			s.fail(ctx.Err())
			return
		}
	}
}

func (s *Stream) restarted(first AccessUnit) {
	s.mu.Lock()
	s.stats.Restarts++
	s.rekey = false
	s.mu.Unlock()
	s.publish(first)
}

func (s *Stream) needKey() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rekey
}

func (s *Stream) fail(err error) {
	s.mu.Lock()
	s.err = err
	s.stats.LastError = err.Error()
	s.mu.Unlock()
}

// publish records au for late joiners and hands it to every subscriber. A
// subscriber that cannot keep up is dropped (its channel closed): a decoder that
// missed a picture cannot go on, and Subscribe again replays from a key frame.
func (s *Stream) publish(au AccessUnit) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if au.Key {
		if ps := paramSets(au.Data); len(ps) > 0 {
			s.params = ps
		} else if len(s.params) > 0 {
			// Encoders send SPS/PPS once, before the first key frame; repeat them so
			// every key frame can start a decoder.
			au.Data = append(bytes.Clone(s.params), au.Data...)
		}
		s.gop, s.gopLen = s.gop[:0], 0
		s.stats.KeyFrames++
	}
	s.gop = append(s.gop, au)
	s.gopLen += len(au.Data)
	if s.gopLen > maxGOPBytes {
		s.rekey = true
	}
	s.stats.Pictures++
	s.stats.Bytes += int64(len(au.Data))
	for sb := range s.subs {
		select {
		case sb.ch <- au:
		default:
			close(sb.ch)
			delete(s.subs, sb)
		}
	}
}

// Subscribe returns the pictures since the last key frame (decode them first), then
// a channel of new ones. The channel closes when the stream ends or when the
// subscriber fell behind; cancel unsubscribes.
func (s *Stream) Subscribe() (replay []AccessUnit, live <-chan AccessUnit, cancel func()) {
	sb := &sub{ch: make(chan AccessUnit, 120)}
	s.mu.Lock()
	replay = append([]AccessUnit(nil), s.gop...)
	select {
	case <-s.done:
		close(sb.ch)
	default:
		s.subs[sb] = true
	}
	s.mu.Unlock()
	return replay, sb.ch, func() {
		s.mu.Lock()
		if s.subs[sb] {
			delete(s.subs, sb)
			close(sb.ch)
		}
		s.mu.Unlock()
	}
}

// RequestKey asks for a fresh key frame soon: the next screenrecord run starts now.
func (s *Stream) RequestKey() {
	s.mu.Lock()
	s.rekey = true
	s.mu.Unlock()
}

// Done is closed when the stream has ended; Err then says why.
func (s *Stream) Done() <-chan struct{} { return s.done }

// Err is why the stream ended (nil while it runs).
func (s *Stream) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Stats returns the counters so far.
func (s *Stream) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

// Size is the video size the stream was opened with.
func (s *Stream) Size() (int, int) { return s.opts.Width, s.opts.Height }

// paramSets returns the SPS and PPS NAL units (with start codes) at the front of an
// access unit.
func paramSets(au []byte) []byte {
	var out []byte
	for _, nal := range bytes.Split(au, startCode4) {
		if len(nal) == 0 {
			continue
		}
		switch nal[0] & 0x1f {
		case nalSPS, nalPPS:
			out = append(out, startCode4...)
			out = append(out, nal...)
		}
	}
	return out
}

package video

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"fixthis/adb"
)

// run is one screenrecord process on the device and the pictures it produced.
type run struct {
	rc      io.ReadCloser
	aus     chan AccessUnit // closed when the process ended
	started time.Time
	// Set before aus is closed:
	err     error  // why the stream ended, nil at the time limit
	text    string // what the device printed instead of video
	pics    int
	broken  atomic.Bool // a picture was cut short: a key frame is needed
	corrupt int
	// quiet is the pause that ends a picture. It grows to twice the longest pause seen
	// inside a picture (up to maxQuiet): on a slow link the adb server hands on 256 KB
	// packets only once each has arrived whole, so a picture arrives in bursts.
	quiet atomic.Int64
}

const (
	maxQuiet = time.Second
	// firstQuiet ends a run's first picture: a whole key frame, in several bursts,
	// before any pause inside a picture could be measured.
	firstQuiet = 300 * time.Millisecond
)

// startRun starts `screenrecord … -` over exec: and splits its output as it arrives.
// A pause of quiet ends the picture being received (see splitter).
func startRun(ctx context.Context, dev adb.Handle, cmd string, quiet time.Duration) (*run, error) {
	rc, err := dev.ExecStream(ctx, cmd)
	if err != nil {
		return nil, err
	}
	r := &run{rc: rc, aus: make(chan AccessUnit, 16), started: time.Now()}
	r.quiet.Store(int64(quiet))
	go r.read(ctx)
	return r, nil
}

type chunk struct {
	data []byte
	at   time.Time
	err  error
}

func (r *run) read(ctx context.Context) {
	defer close(r.aus)
	chunks := make(chan chunk, 4)
	go func() {
		defer close(chunks)
		for {
			buf := make([]byte, 256<<10)
			n, err := r.rc.Read(buf)
			if n > 0 {
				chunks <- chunk{data: buf[:n], at: time.Now()}
			}
			if err != nil {
				if !errors.Is(err, io.EOF) {
					chunks <- chunk{err: err}
				}
				return
			}
		}
	}()
	var sp splitter
	var text bytes.Buffer
	var last time.Time
	breaks := 0
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer func() {
		timer.Stop()
		r.rc.Close()
		for range chunks {
			// Let the reading goroutine finish now that the stream is closed.
		}
		r.corrupt = sp.Corrupt
		if r.pics == 0 {
			r.text = strings.TrimSpace(text.String())
		}
	}()
	send := func(aus []AccessUnit) bool {
		for _, au := range aus {
			select {
			case r.aus <- au:
				r.pics++
			case <-ctx.Done():
				return false
			}
		}
		return true
	}
	for {
		select {
		case c, ok := <-chunks:
			if !ok {
				send(sp.Flush(last))
				return
			}
			if c.err != nil {
				r.err = c.err
				send(sp.Flush(last))
				return
			}
			if sp.midNAL() && !hasStartCodePrefix(c.data) && !last.IsZero() {
				// A pause inside a picture: the next pause that ends one must be longer.
				if gap := 2 * c.at.Sub(last); gap > time.Duration(r.quiet.Load()) {
					r.quiet.Store(int64(min(gap, maxQuiet)))
				}
			}
			last = c.at
			if r.pics == 0 && !sp.synced && text.Len() < 4096 {
				// Before the first start code: an error message, not video.
				text.Write(c.data)
			}
			if !send(sp.Write(c.data, c.at)) {
				return
			}
			if sp.Breaks > breaks {
				breaks = sp.Breaks
				r.broken.Store(true)
				r.quiet.Store(min(2*r.quiet.Load(), int64(maxQuiet)))
			}
			wait := time.Duration(r.quiet.Load())
			if r.pics == 0 {
				wait = max(wait, firstQuiet)
			}
			timer.Reset(wait)
		case <-timer.C:
			if !send(sp.Flush(last)) {
				return
			}
		case <-ctx.Done():
			r.err = ctx.Err()
			return
		}
	}
}

// stop ends the process on the device by closing its stream.
func (r *run) stop() { r.rc.Close() }

// UnsupportedError says why a device cannot stream video, for the preview status and
// `fixthis doctor`; callers fall back to raw frames.
type UnsupportedError struct{ Reason string }

func (e *UnsupportedError) Error() string { return "live video unavailable: " + e.Reason }

// failure explains a run that produced no picture.
func (r *run) failure(timeout time.Duration) error {
	text := r.text
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		text = strings.TrimSpace(text[:i])
	}
	switch {
	case strings.Contains(r.text, "not found") || strings.Contains(r.text, "No such file"):
		return &UnsupportedError{Reason: fmt.Sprintf("the device has no screenrecord command (%s)", text)}
	case strings.Contains(r.text, "unrecognized option") || strings.Contains(r.text, "Unknown format"):
		return &UnsupportedError{Reason: fmt.Sprintf("this Android version's screenrecord cannot stream H.264 (%s)", text)}
	case text != "":
		return &UnsupportedError{Reason: fmt.Sprintf("screenrecord failed: %s", text)}
	case r.err != nil:
		return fmt.Errorf("screenrecord stream: %w", r.err)
	case timeout > 0:
		return &UnsupportedError{Reason: fmt.Sprintf("screenrecord sent no video within %s", timeout)}
	}
	return &UnsupportedError{Reason: "screenrecord ended without sending video"}
}

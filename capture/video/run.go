package video

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
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
	broken  bool // a picture was cut short: the next run must start with a key frame
	corrupt int
}

// startRun starts `screenrecord … -` over exec: and splits its output as it arrives.
// A quiet spell of quiet ends the picture being received (see splitter).
func startRun(ctx context.Context, c *adb.Client, serial, cmd string, quiet time.Duration) (*run, error) {
	rc, err := c.ExecStream(ctx, serial, cmd)
	if err != nil {
		return nil, err
	}
	r := &run{rc: rc, aus: make(chan AccessUnit, 16), started: time.Now()}
	go r.read(ctx, quiet)
	return r, nil
}

type chunk struct {
	data []byte
	at   time.Time
	err  error
}

func (r *run) read(ctx context.Context, quiet time.Duration) {
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
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer func() {
		timer.Stop()
		r.rc.Close()
		for range chunks {
			// Let the reading goroutine finish now that the stream is closed.
		}
		r.broken, r.corrupt = r.broken || sp.Broken, sp.Corrupt
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
			last = c.at
			if r.pics == 0 && !sp.synced && text.Len() < 4096 {
				// Before the first start code: an error message, not video.
				text.Write(c.data)
			}
			if !send(sp.Write(c.data, c.at)) {
				return
			}
			if sp.Broken {
				r.broken = true
			}
			timer.Reset(quiet)
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

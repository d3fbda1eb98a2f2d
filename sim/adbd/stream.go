// One opened stream: reads and writes over WRTE messages with adb's flow control.
package adbd

import (
	"context"
	"errors"
	"sync"
	"time"
)

// ErrStreamClosed is what a stream returns once the host closed it; a Handler
// returning it (or wrapping it) ended normally.
var ErrStreamClosed = errors.New("adb stream closed by host")

// stream is one opened service: an io.ReadWriteCloser over WRTE messages with adb's
// flow control, one WRTE in flight per direction until the peer's OKAY.
type stream struct {
	t        *transport
	localID  uint32
	remoteID uint32
	maxData  uint32
	cancel   context.CancelFunc

	mu       sync.Mutex
	cond     *sync.Cond
	in       []byte // data of the host's last WRTE not yet read
	canSend  bool   // no WRTE of ours is waiting for its OKAY
	closed   bool   // host closed or transport gone
	selfDone bool   // we sent CLSE
}

func newStream(t *transport, local, remote, maxData uint32) *stream {
	s := &stream{t: t, localID: local, remoteID: remote, maxData: maxData, canSend: true}
	s.cond = sync.NewCond(&s.mu)
	return s
}

// deliver stores the payload of a host WRTE; the OKAY goes out once it is read, which
// is what keeps a fast pusher from outrunning a slow service.
func (s *stream) deliver(data []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.in = append(s.in, data...)
	s.cond.Broadcast()
}

func (s *stream) ready(remote uint32) {
	s.mu.Lock()
	if s.remoteID == 0 {
		s.remoteID = remote
	}
	s.canSend = true
	s.cond.Broadcast()
	s.mu.Unlock()
}

func (s *stream) remoteClosed() {
	s.mu.Lock()
	s.closed = true
	s.cond.Broadcast()
	s.mu.Unlock()
	if s.cancel != nil {
		s.cancel()
	}
}

// Read returns host data; io.EOF-like ErrStreamClosed once the host closed the stream.
func (s *stream) Read(p []byte) (int, error) {
	s.mu.Lock()
	for len(s.in) == 0 && !s.closed {
		s.cond.Wait()
	}
	if len(s.in) == 0 {
		s.mu.Unlock()
		return 0, ErrStreamClosed
	}
	n := copy(p, s.in)
	s.in = s.in[n:]
	drained := len(s.in) == 0
	closed := s.closed
	s.mu.Unlock()
	if drained && !closed {
		if err := s.t.send(message{Command: cmdOKAY, Arg0: s.localID, Arg1: s.remoteID}); err != nil {
			return n, err
		}
	}
	return n, nil
}

// awaitSendable waits until no WRTE of ours waits for its OKAY; ErrStreamClosed once
// the stream is closed.
func (s *stream) awaitSendable() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for !s.canSend && !s.closed {
		s.cond.Wait()
	}
	if s.closed || s.selfDone {
		return ErrStreamClosed
	}
	return nil
}

// Write sends p in WRTE messages no larger than the host accepts, waiting for the
// host's OKAY between them.
func (s *stream) Write(p []byte) (int, error) {
	written := 0
	for len(p) > 0 {
		chunk := p
		if uint32(len(chunk)) > s.maxData {
			chunk = chunk[:s.maxData]
		}
		s.mu.Lock()
		for !s.canSend && !s.closed {
			s.cond.Wait()
		}
		if s.closed || s.selfDone {
			s.mu.Unlock()
			return written, ErrStreamClosed
		}
		s.canSend = false
		s.mu.Unlock()
		data := make([]byte, len(chunk))
		copy(data, chunk)
		if err := s.t.send(message{Command: cmdWRTE, Arg0: s.localID, Arg1: s.remoteID, Data: data}); err != nil {
			return written, err
		}
		written += len(chunk)
		p = p[len(chunk):]
	}
	return written, nil
}

// Close waits briefly for the host to acknowledge the last WRTE, so no output is lost
// to a close racing ahead of it, then sends CLSE.
func (s *stream) Close() error {
	s.mu.Lock()
	if s.selfDone {
		s.mu.Unlock()
		return nil
	}
	deadline := time.Now().Add(5 * time.Second)
	for !s.canSend && !s.closed && time.Now().Before(deadline) {
		waitTimeout(s.cond, 50*time.Millisecond)
	}
	s.selfDone = true
	s.closed = true
	s.cond.Broadcast()
	s.mu.Unlock()
	s.t.remove(s.localID)
	// Sent even when the host closed first: adbd answers a CLSE with its own.
	return s.t.send(message{Command: cmdCLSE, Arg0: s.localID, Arg1: s.remoteID})
}

// waitTimeout waits on c (whose lock is held) for at most d.
func waitTimeout(c *sync.Cond, d time.Duration) {
	timer := time.AfterFunc(d, func() {
		c.L.Lock()
		c.Broadcast()
		c.L.Unlock()
	})
	c.Wait()
	timer.Stop()
}

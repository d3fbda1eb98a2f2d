// The socket between a shell's process and adbd: what the process writes queues there
// while a WRTE is in flight, and goes out together in the next one.
package adbd

import (
	"sync"
)

// socketBufferBytes is how much output may wait for the host before the process's
// writes block: the capacity of a Linux pipe (pipe(7): 65,536 bytes since 2.6.11),
// which is what a shell's stdout is on the phone.
const socketBufferBytes = 64 << 10

// localSocket stands for adbd's local socket of one shell stream. adbd does not wait
// for the host between the process's writes: it reads everything the process has
// written by the time the host acknowledged the previous WRTE, up to the payload the
// host accepts, and sends it as one WRTE (AOSP platform/system/core at 238e2abc,
// adb/sockets.cpp:151-183, local_socket_flush_outgoing reads until EAGAIN into one
// packet of max_payload). So a command that prints its answer in many small writes,
// as dumpsys does, costs the host a few round trips, not one per write. Simpler than
// a phone: under the shell protocol each write becomes its own stdout or stderr
// packet before it is queued, where a phone's shell thread makes one packet of each
// read of the process's pipe (adb/daemon/shell_service.cpp:733-734,
// Subprocess::PassOutput), so the simulated phone sends more, smaller packets inside
// the same WRTEs.
type localSocket struct {
	s *stream

	mu     sync.Mutex
	cond   *sync.Cond
	queued []byte
	// lent is what is left of a write larger than the queue holds, sent from the
	// writer's own buffer while it waits (a pipe's writer of that much blocks too);
	// lentBusy: the pump is copying a piece of it into a WRTE.
	lent     []byte
	lentBusy bool
	closed   bool  // the process is done writing
	err      error // the stream failed: the process's next write gets it
	done     chan struct{}
}

// newLocalSocket starts sending what is written to it over s.
func newLocalSocket(s *stream) *localSocket {
	l := &localSocket{s: s, done: make(chan struct{})}
	l.cond = sync.NewCond(&l.mu)
	go l.pump()
	return l
}

// Write queues p, blocking while the queue is full as a pipe's writer does. A write
// larger than the queue is not copied: it goes out from p, and Write returns once
// the last of it was taken into a WRTE.
func (l *localSocket) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	large := len(p) > socketBufferBytes
	for l.err == nil && !l.closed && (l.lent != nil || len(l.queued) >= socketBufferBytes || large && len(l.queued) > 0) {
		l.cond.Wait()
	}
	switch {
	case l.err != nil:
		return 0, l.err
	case l.closed: // nothing sends it any more
		return 0, ErrStreamClosed
	case !large:
		l.queued = append(l.queued, p...)
		l.cond.Broadcast()
		return len(p), nil
	}
	l.lent = p
	l.cond.Broadcast()
	for (len(l.lent) > 0 || l.lentBusy) && l.err == nil {
		l.cond.Wait()
	}
	left := len(l.lent)
	l.lent = nil
	l.cond.Broadcast()
	if l.err != nil {
		return len(p) - left, l.err
	}
	return len(p), nil
}

// Close ends the process's output and waits until all of it was sent, or the stream
// failed.
func (l *localSocket) Close() error {
	l.mu.Lock()
	l.closed = true
	l.cond.Broadcast()
	l.mu.Unlock()
	<-l.done
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// pump sends the queue as it stands each time the host can take a WRTE. Once the
// process is done and all went out it stops without waiting for the last OKAY
// (stream.Close waits for it, for a bounded time).
func (l *localSocket) pump() {
	defer close(l.done)
	for l.waitForOutput() {
		if err := l.s.awaitSendable(); err != nil {
			l.fail(err)
			return
		}
		chunk, ok := l.next(int(l.s.maxData))
		if !ok {
			return
		}
		_, err := l.s.Write(chunk)
		l.mu.Lock()
		l.lentBusy = false
		l.cond.Broadcast()
		l.mu.Unlock()
		if err != nil {
			l.fail(err)
			return
		}
	}
}

// waitForOutput waits until something is queued; false once the process is done
// and everything went out, or the stream failed.
func (l *localSocket) waitForOutput() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for len(l.queued) == 0 && len(l.lent) == 0 && !l.closed && l.err == nil {
		l.cond.Wait()
	}
	return (len(l.queued) > 0 || len(l.lent) > 0) && l.err == nil
}

// next takes up to max queued bytes, else the next piece of a lent write; false
// when there is neither.
func (l *localSocket) next(max int) ([]byte, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return nil, false
	}
	if len(l.queued) > 0 {
		n := min(len(l.queued), max)
		// Appends land past the end of the queue, never in what is taken here, and
		// stream.Write copies it into its message.
		chunk := l.queued[:n:n]
		l.queued = l.queued[n:]
		l.cond.Broadcast()
		return chunk, true
	}
	if len(l.lent) > 0 {
		n := min(len(l.lent), max)
		chunk := l.lent[:n:n]
		l.lent, l.lentBusy = l.lent[n:], true
		return chunk, true
	}
	return nil, false
}

func (l *localSocket) fail(err error) {
	l.mu.Lock()
	l.err = err
	l.queued = nil
	l.cond.Broadcast()
	l.mu.Unlock()
}

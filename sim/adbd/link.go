// The simulated cable between phone and host: throughput and latency applied to
// the host connection.
package adbd

import (
	"fmt"
	"net"
	"sync"
	"time"
)

// Link is the simulated cable or network between the phone and the host: a byte
// rate each way and a one-way delay. The zero Link passes bytes as fast as loopback.
type Link struct {
	Name        string
	BytesPerSec int           // 0: unlimited
	Latency     time.Duration // one way
}

// Links are the transports `fixthis sim --link` offers, with the throughput adb
// reaches over them in practice.
var Links = map[string]Link{
	"none": {Name: "none"},
	"usb2": {Name: "usb2", BytesPerSec: 35 << 20},
	"usb3": {Name: "usb3", BytesPerSec: 300 << 20},
	"wifi": {Name: "wifi", BytesPerSec: 5 << 20, Latency: 5 * time.Millisecond},
}

// LinkNamed returns the link called name.
func LinkNamed(name string) (Link, error) {
	l, ok := Links[name]
	if !ok {
		return Link{}, fmt.Errorf("unknown link %q: want usb2, usb3, wifi or none", name)
	}
	return l, nil
}

func (l Link) shaped() bool { return l.BytesPerSec > 0 || l.Latency > 0 }

// wrap shapes both directions of a host connection.
func (l Link) wrap(c net.Conn) net.Conn {
	if !l.shaped() {
		return c
	}
	lc := &linkConn{Conn: c}
	lc.pipeR, lc.pipeW = net.Pipe()
	lc.out = newShaper(l, c.Write)
	lc.in = newShaper(l, lc.pipeW.Write)
	go lc.readLoop()
	return lc
}

// linkConn paces what the device writes and delays what it reads. Reads go through
// a pipe fed by a goroutine that receives from the real connection, so the host's
// bytes arrive Latency after they were sent and no faster than the link carries.
type linkConn struct {
	net.Conn
	out          *shaper
	in           *shaper
	pipeR, pipeW net.Conn
}

func (c *linkConn) readLoop() {
	buf := make([]byte, 64*1024)
	for {
		n, err := c.Conn.Read(buf)
		if n > 0 {
			if _, werr := c.in.send(buf[:n]); werr != nil {
				break
			}
		}
		if err != nil {
			break
		}
	}
	c.in.close()
	c.pipeW.Close()
}

func (c *linkConn) Read(p []byte) (int, error) { return c.pipeR.Read(p) }

func (c *linkConn) Write(p []byte) (int, error) { return c.out.send(p) }

func (c *linkConn) Close() error {
	c.out.close()
	c.pipeR.Close()
	return c.Conn.Close()
}

// shaper delivers chunks in order, each no earlier than its transmission would end
// at the link's rate plus the latency. The sender waits only for the transmission,
// not for the latency, as on a real wire.
type shaper struct {
	link  Link
	write func([]byte) (int, error)

	mu       sync.Mutex
	busyTill time.Time // when the link finishes sending what it was given
	queue    chan timedChunk
	err      error
	done     chan struct{}
	once     sync.Once
}

type timedChunk struct {
	data []byte
	due  time.Time
}

func newShaper(l Link, write func([]byte) (int, error)) *shaper {
	s := &shaper{link: l, write: write, queue: make(chan timedChunk, 1024), done: make(chan struct{})}
	go s.deliver()
	return s
}

// piece is how much the shaper hands on at once: a real link delivers a large
// message as a trickle of packets, not in one burst after its last byte.
const piece = 16 << 10

func (s *shaper) send(p []byte) (int, error) {
	var sent time.Time
	for off := 0; off < len(p); off += piece {
		part := p[off:min(off+piece, len(p))]
		s.mu.Lock()
		if s.err != nil {
			s.mu.Unlock()
			return off, s.err
		}
		now := time.Now()
		start := s.busyTill
		if start.Before(now) {
			start = now
		}
		sent = start
		if s.link.BytesPerSec > 0 {
			sent = start.Add(time.Duration(float64(len(part)) / float64(s.link.BytesPerSec) * float64(time.Second)))
		}
		s.busyTill = sent
		s.mu.Unlock()
		select {
		case s.queue <- timedChunk{data: append([]byte(nil), part...), due: sent.Add(s.link.Latency)}:
		case <-s.done:
			return off, net.ErrClosed
		}
	}
	// Block the sender while the link is busy, so a writer cannot run ahead of it.
	if d := time.Until(sent); d > 0 {
		time.Sleep(d)
	}
	return len(p), nil
}

func (s *shaper) deliver() {
	for {
		select {
		case c := <-s.queue:
			if d := time.Until(c.due); d > 0 {
				time.Sleep(d)
			}
			if _, err := s.write(c.data); err != nil {
				s.mu.Lock()
				s.err = err
				s.mu.Unlock()
				s.close()
				return
			}
		case <-s.done:
			return
		}
	}
}

func (s *shaper) close() { s.once.Do(func() { close(s.done) }) }

// The host connection: one TCP connection from the adb server, its handshake and
// the table of the streams opened on it.
package adbd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"
)

// transport is one host connection: the adb server's side of a TCP device. It reads
// messages in one goroutine and runs every opened service in its own goroutine.
type transport struct {
	srv  *Server
	conn net.Conn

	wmu sync.Mutex // serialises whole messages on conn

	mu        sync.Mutex
	streams   map[uint32]*stream
	nextID    uint32
	maxData   uint32 // what the host accepts per WRTE
	verify    bool   // host is old enough to need payload checksums checked
	connected bool
}

func newTransport(srv *Server, conn net.Conn) *transport {
	return &transport{srv: srv, conn: conn, streams: map[uint32]*stream{}, nextID: 1, maxData: deviceMaxData}
}

func (t *transport) send(m message) error {
	t.wmu.Lock()
	defer t.wmu.Unlock()
	if _, err := t.conn.Write(m.encode()); err != nil {
		return fmt.Errorf("write %s to host: %w", m, err)
	}
	return nil
}

// serve runs until the host goes away or ctx ends, then closes every stream.
func (t *transport) serve(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		<-ctx.Done()
		t.conn.Close()
	}()
	defer t.closeAll()
	r := bufio.NewReaderSize(t.conn, 64*1024)
	for {
		t.mu.Lock()
		verify := t.verify
		t.mu.Unlock()
		m, err := readMessage(r, maxAcceptedData, verify)
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) || ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("read from host %s: %w", t.conn.RemoteAddr(), err)
		}
		if err := t.handle(ctx, m); err != nil {
			return err
		}
	}
}

func (t *transport) handle(ctx context.Context, m message) error {
	switch m.Command {
	case cmdCNXN:
		return t.handleConnect(m)
	case cmdOPEN:
		if !t.isConnected() {
			return fmt.Errorf("host sent OPEN before CNXN")
		}
		t.handleOpen(ctx, m)
	case cmdOKAY:
		if s := t.stream(m.Arg1); s != nil {
			s.ready(m.Arg0)
		}
	case cmdWRTE:
		s := t.stream(m.Arg1)
		if s == nil {
			// The stream is gone; tell the host so it stops writing.
			return t.send(message{Command: cmdCLSE, Arg0: 0, Arg1: m.Arg0})
		}
		s.deliver(m.Data)
	case cmdCLSE:
		if s := t.stream(m.Arg1); s != nil {
			s.remoteClosed()
			t.remove(s.localID)
		}
	case cmdAUTH, cmdSTLS, cmdSYNC:
		// The sim never asks for AUTH or TLS; stray ones are ignored like adbd ignores
		// obsolete SYNC.
	default:
		t.srv.logf("sim: ignoring unknown message %s", m)
	}
	return nil
}

func (t *transport) handleConnect(m message) error {
	t.mu.Lock()
	if m.Arg1 > 0 && m.Arg1 < t.maxData {
		t.maxData = m.Arg1
	}
	t.verify = m.Arg0 < versionSkipChecksum
	reconnect := t.connected
	t.connected = true
	t.mu.Unlock()
	if reconnect {
		// A second CNXN means the host restarted its side: old streams are dead.
		t.closeAll()
	}
	t.srv.logf("sim: host connected from %s (%s)", t.conn.RemoteAddr(), strings.TrimRight(string(m.Data), "\x00"))
	return t.send(message{Command: cmdCNXN, Arg0: protocolVersion, Arg1: deviceMaxData, Data: []byte(t.srv.banner())})
}

func (t *transport) isConnected() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.connected
}

func (t *transport) stream(id uint32) *stream {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.streams[id]
}

func (t *transport) remove(id uint32) {
	t.mu.Lock()
	delete(t.streams, id)
	t.mu.Unlock()
}

func (t *transport) closeAll() {
	t.mu.Lock()
	all := make([]*stream, 0, len(t.streams))
	for _, s := range t.streams {
		all = append(all, s)
	}
	t.streams = map[uint32]*stream{}
	t.mu.Unlock()
	for _, s := range all {
		s.remoteClosed()
	}
}

func (t *transport) handleOpen(ctx context.Context, m message) {
	name := strings.TrimRight(string(m.Data), "\x00")
	svc, err := t.srv.resolveService(name)
	if err != nil {
		// adbd answers a service it cannot open with CLSE(0, remote); the host then
		// reports the failure to its client.
		t.srv.logf("sim: refuse %q: %v", name, err)
		_ = t.send(message{Command: cmdCLSE, Arg0: 0, Arg1: m.Arg0})
		return
	}
	t.mu.Lock()
	id := t.nextID
	t.nextID++
	maxData := t.maxData
	s := newStream(t, id, m.Arg0, maxData)
	t.streams[id] = s
	t.mu.Unlock()
	if err := t.send(message{Command: cmdOKAY, Arg0: id, Arg1: m.Arg0}); err != nil {
		t.remove(id)
		return
	}
	sctx, cancel := context.WithCancel(ctx)
	s.cancel = cancel
	go func() {
		defer cancel()
		start := time.Now()
		err := svc(sctx, s)
		if err != nil && !errors.Is(err, ErrStreamClosed) && sctx.Err() == nil {
			t.srv.logf("sim: service %q: %v", name, err)
		}
		s.Close()
		t.srv.logf("sim: service %q done in %s", name, time.Since(start).Round(time.Millisecond))
	}()
}

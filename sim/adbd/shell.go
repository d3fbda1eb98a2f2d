// The shell services: `shell:` and `exec:` (stdout and stderr merged, no exit
// status) and `shell,v2:` (the shell protocol's packets); the command line itself
// runs in the Services' shell.
package adbd

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"sync"
)

// shellV1 is `shell:` and `exec:`: stdout and stderr merged, no exit status, host data
// is stdin until the host closes the stream.
func (srv *Server) shellV1(ctx context.Context, s *stream, cmd string, pty bool) error {
	in := newBufPipe()
	go func() {
		_, _ = io.Copy(in, s)
		in.CloseWrite()
	}()
	sock := newLocalSocket(s)
	var mu sync.Mutex
	var out io.Writer = syncWriter{mu: &mu, w: sock}
	if pty {
		out = crlfWriter{out}
	}
	if cmd == "" {
		srv.cfg.Services.Interactive(ctx, in, out, out, pty)
	} else {
		srv.cfg.Services.Shell(ctx, cmd, in, out, out)
	}
	return sock.Close()
}

// shellV2 speaks the shell protocol: separate stdout/stderr packets and an exit
// packet carrying the status.
func (srv *Server) shellV2(ctx context.Context, s *stream, cmd string, pty bool) error {
	in := newBufPipe()
	go func() {
		defer in.CloseWrite()
		r := bufio.NewReader(s)
		for {
			p, err := readShellPacket(r)
			if err != nil {
				return
			}
			switch p.ID {
			case shellStdin:
				_, _ = in.Write(p.Data)
			case shellCloseStdin:
				return
			case shellWindowSize:
				// No terminal to resize.
			}
		}
	}()
	sock := newLocalSocket(s)
	var mu sync.Mutex
	max := int(s.maxData) - 5
	var stdout io.Writer = shellPacketWriter{mu: &mu, w: sock, id: shellStdout, max: max}
	var stderr io.Writer = shellPacketWriter{mu: &mu, w: sock, id: shellStderr, max: max}
	if pty {
		// A pty merges stderr into stdout and turns \n into \r\n.
		stdout = crlfWriter{stdout}
		stderr = stdout
	}
	var status int
	if cmd == "" {
		srv.cfg.Services.Interactive(ctx, in, stdout, stderr, pty)
	} else {
		status = srv.cfg.Services.Shell(ctx, cmd, in, stdout, stderr)
	}
	mu.Lock()
	_, err := sock.Write(encodeShellPacket(shellExit, []byte{byte(status)}))
	mu.Unlock()
	if cerr := sock.Close(); err == nil {
		err = cerr
	}
	return err
}

// crlfWriter is the output side of a pty: \n becomes \r\n.
type crlfWriter struct{ w io.Writer }

func (c crlfWriter) Write(p []byte) (int, error) {
	if _, err := c.w.Write(bytes.ReplaceAll(p, []byte("\n"), []byte("\r\n"))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// bufPipe is an unbounded pipe: the host's stdin is queued without blocking the
// stream reader, whether or not the command ever reads it.
type bufPipe struct {
	mu     sync.Mutex
	cond   *sync.Cond
	buf    []byte
	closed bool
}

func newBufPipe() *bufPipe {
	p := &bufPipe{}
	p.cond = sync.NewCond(&p.mu)
	return p
}

func (p *bufPipe) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return 0, io.ErrClosedPipe
	}
	p.buf = append(p.buf, b...)
	p.cond.Broadcast()
	return len(b), nil
}

func (p *bufPipe) Read(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.buf) == 0 && !p.closed {
		p.cond.Wait()
	}
	if len(p.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(b, p.buf)
	p.buf = p.buf[n:]
	return n, nil
}

// CloseWrite ends the input: readers get io.EOF once the queue is drained.
func (p *bufPipe) CloseWrite() {
	p.mu.Lock()
	p.closed = true
	p.cond.Broadcast()
	p.mu.Unlock()
}

// syncWriter serialises writes from stdout and stderr that share one sink.
type syncWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (s syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

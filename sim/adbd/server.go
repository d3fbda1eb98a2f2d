// Package adbd is the device side of the ADB transport, as adbd speaks it to the
// host's adb server over TCP: messages (CNXN, OPEN, OKAY, WRTE, CLSE), one stream per
// opened service with adb's flow control, the shell protocol v2 framing, the sync
// protocol, reverse forwards and a simulated cable (Link). It knows nothing of
// Android: what a shell command does, which sockets exist and what files there are
// come from the Services and FileSystem the layer above gives it.
package adbd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"sort"
	"strings"
	"sync"
	"time"
)

// Services is the device above the transport: the shell a `shell:`/`exec:` stream
// runs, and the sockets `localabstract:` and `tcp:` streams connect to.
type Services interface {
	// Shell runs one command line the way /system/bin/sh -c would and returns its
	// exit status.
	Shell(ctx context.Context, cmd string, stdin io.Reader, stdout, stderr io.Writer) int
	// Interactive is `adb shell` without a command: a prompt, one command per line,
	// until stdin ends or the user types exit. echo repeats each line, as a pty does.
	Interactive(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, echo bool)
	// Socket returns the handler of the socket called name ("NAME" of
	// localabstract:NAME, or "tcp:PORT"); an error refuses the open, like connect()
	// getting ECONNREFUSED.
	Socket(name string) (Handler, error)
}

// Handler serves one opened stream until it returns; the stream is then closed.
type Handler func(ctx context.Context, s io.ReadWriter) error

// FileSystem is what the sync service (push, pull, stat, ls) reads and writes.
type FileSystem interface {
	Stat(name string) (fs.FileInfo, error)
	// List is a directory's entries sorted by name, or the one entry of a file.
	List(name string) ([]fs.FileInfo, error)
	ReadFile(name string) ([]byte, error)
	// Push stores a pushed file, creating missing parent directories as adbd with
	// fixed_push_mkdir does; a zero mtime keeps the time of the write.
	Push(name string, data []byte, perm fs.FileMode, mtime time.Time) error
}

// Identity is what `adb devices -l` shows of the device (ro.product.name,
// ro.product.model, ro.product.device).
type Identity struct {
	Product, Model, Device string
}

// Config is everything the transport needs from the device it carries.
type Config struct {
	Identity Identity
	Services Services
	Files    FileSystem
	// Link throttles the connection to the host like a USB cable or Wi-Fi would.
	Link Link
	// Logf receives diagnostics; nil discards them.
	Logf func(format string, args ...any)
}

// features are what adbd on Android 14 advertises, minus the compressed sync
// variants: the sim transfers files uncompressed, so it must not offer brotli, lz4
// or zstd to clients that would then use them.
var features = []string{
	"shell_v2", "cmd", "stat_v2", "ls_v2", "fixed_push_mkdir", "apex", "abb",
	"fixed_push_symlink_timestamp", "abb_exec", "remount_shell", "track_app",
	"sendrecv_v2", "sendrecv_v2_dry_run_send",
}

// Server listens for host connections and serves each one.
type Server struct {
	ln     net.Listener
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	cfg    Config

	mu       sync.Mutex
	closing  bool // shutdown ran: a connection accepted now is dropped
	conns    map[net.Conn]struct{}
	reverses []reverseRule
}

type reverseRule struct{ Remote, Local string }

// Listen opens the listening socket on addr ("127.0.0.1:0" when empty). Nothing
// is accepted until Serve, so the device above can finish booting first; the
// server stops when ctx ends or Close is called.
func Listen(ctx context.Context, addr string) (*Server, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("simulated device listen on %s: %w", addr, err)
	}
	ctx, cancel := context.WithCancel(ctx)
	return &Server{ln: ln, ctx: ctx, cancel: cancel, conns: map[net.Conn]struct{}{}}, nil
}

// Serve accepts host connections in the background.
func (s *Server) Serve(cfg Config) {
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	s.cfg = cfg
	s.wg.Add(1)
	go s.acceptLoop()
	go func() {
		<-s.ctx.Done()
		s.shutdown()
	}()
}

// Addr is the TCP address the device listens on.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Close stops listening and drops every host connection, so the adb server sees
// the device go offline.
func (s *Server) Close() error {
	// The connections go first, as when a cable is pulled: a command cut by the
	// cancel must not get its exit status out to the host before the link drops.
	s.shutdown()
	s.cancel()
	s.wg.Wait()
	return nil
}

func (s *Server) shutdown() {
	s.ln.Close()
	s.mu.Lock()
	s.closing = true
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
}

func (s *Server) logf(format string, args ...any) { s.cfg.Logf(format, args...) }

func (s *Server) acceptLoop() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				s.logf("sim: accept: %v", err)
			}
			return
		}
		s.mu.Lock()
		if s.closing || s.ctx.Err() != nil {
			s.mu.Unlock()
			c.Close()
			return
		}
		s.conns[c] = struct{}{}
		s.mu.Unlock()
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer func() {
				s.mu.Lock()
				delete(s.conns, c)
				s.mu.Unlock()
				c.Close()
			}()
			if err := newTransport(s, s.cfg.Link.wrap(c)).serve(s.ctx); err != nil {
				s.logf("sim: %v", err)
			}
		}()
	}
}

// banner is the CNXN payload: the identity adb shows in `adb devices -l` plus the
// feature list that decides which protocols clients use.
func (s *Server) banner() string {
	id := s.cfg.Identity
	return fmt.Sprintf("device::ro.product.name=%s;ro.product.model=%s;ro.product.device=%s;features=%s",
		id.Product, id.Model, id.Device, strings.Join(features, ","))
}

// Reverses lists the reverse forwards the host installed, as "remote local" pairs.
func (s *Server) Reverses() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.reverses))
	for _, r := range s.reverses {
		out = append(out, r.Remote+" "+r.Local)
	}
	sort.Strings(out)
	return out
}

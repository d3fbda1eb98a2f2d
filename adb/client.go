// Package adb talks to the adb server over its host protocol: device listing
// and tracking, exec and shell (v2, with exit codes), forwards, sync push/pull.
//
// Exec functions (one adb service or device command each, named in their doc
// comment) live apart from the parsers of the text they return (*_parse.go),
// which are tested against captured device output in testdata/.
package adb

import (
	"context"
	"errors"
	"fixthis/internal/loopback"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DefaultPort is the adb server port when ANDROID_ADB_SERVER_PORT is unset.
const DefaultPort = 5037

// Options locate the adb server. The zero value means: 127.0.0.1, the port
// from ANDROID_ADB_SERVER_PORT or 5037, and `adb` from PATH.
type Options struct {
	Host    string // adb server host; only a loopback server can be started by EnsureServer
	Port    int    // adb server port; 0 means ANDROID_ADB_SERVER_PORT or DefaultPort
	ADBPath string // adb binary used by EnsureServer; "" means "adb" from PATH
}

// Client talks to one adb server. It is safe for concurrent use; each call
// opens its own socket. It remembers the forwards it created so that the app
// can remove exactly its own (RemoveOwnForwards) and nothing of other tools.
type Client struct {
	host    string
	port    int
	adbPath string

	mu    sync.Mutex
	owned map[forwardKey]string // forward → remote, created by this client

	startMu sync.Mutex // one `adb start-server` at a time
}

// NewClient returns a client for the adb server described by opts. It does not
// connect; use EnsureServer to check (and start) the server.
func NewClient(opts Options) (*Client, error) {
	c := &Client{host: opts.Host, port: opts.Port, adbPath: opts.ADBPath, owned: map[forwardKey]string{}}
	if c.host == "" {
		c.host = "127.0.0.1"
	}
	if c.port == 0 {
		port, err := portFromEnv(os.Getenv("ANDROID_ADB_SERVER_PORT"))
		if err != nil {
			return nil, err
		}
		c.port = port
	}
	if c.port <= 0 || c.port > 65535 {
		return nil, fmt.Errorf("adb server port %d out of range", c.port)
	}
	if c.adbPath == "" {
		c.adbPath = "adb"
	}
	return c, nil
}

func portFromEnv(v string) (int, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return DefaultPort, nil
	}
	p, err := strconv.Atoi(v)
	if err != nil || p <= 0 || p > 65535 {
		return 0, fmt.Errorf("ANDROID_ADB_SERVER_PORT=%q is not a port number", v)
	}
	return p, nil
}

// Addr is the adb server's host:port.
func (c *Client) Addr() string { return net.JoinHostPort(c.host, strconv.Itoa(c.port)) }

// Port is the adb server's port.
func (c *Client) Port() int { return c.port }

// dial opens a context-bound socket to the adb server.
func (c *Client) dial(ctx context.Context) (*conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", c.Addr())
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("connect to adb server at %s: %w", c.Addr(), context.Cause(ctx))
		}
		return nil, fmt.Errorf("connect to adb server at %s: %w: %w", c.Addr(), ErrServerUnavailable, err)
	}
	return newConn(ctx, nc), nil
}

// hostQuery runs a host service that answers OKAY + a length-prefixed payload.
func (c *Client) hostQuery(ctx context.Context, service string) ([]byte, error) {
	cn, err := c.dial(ctx)
	if err != nil {
		return nil, err
	}
	defer cn.Close()
	if err := cn.request(service); err != nil {
		return nil, err
	}
	payload, err := readHexPrefixed(cn)
	if err != nil {
		return nil, cn.ioErr("read reply of "+service, err)
	}
	return payload, nil
}

// ServerVersion runs `host:version` (what `adb version` asks the server).
func (c *Client) ServerVersion(ctx context.Context) (int, error) {
	b, err := c.hostQuery(ctx, "host:version")
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseUint(string(b), 16, 32)
	if err != nil {
		return 0, fmt.Errorf("parse adb server version %q: %w", b, err)
	}
	return int(v), nil
}

// EnsureServer checks that the adb server answers and, when it does not and
// it would be local, starts it with `adb -P PORT start-server`. A missing adb
// binary gives an error wrapping ErrADBMissing that names the package to
// install.
func (c *Client) EnsureServer(ctx context.Context) error {
	_, err := c.ServerVersion(ctx)
	if err == nil || !errors.Is(err, ErrServerUnavailable) {
		return err
	}
	if !loopback.Host(c.host) {
		return fmt.Errorf("adb server at %s does not answer and is not on this machine: %w", c.Addr(), err)
	}
	path, lerr := exec.LookPath(c.adbPath)
	if lerr != nil {
		return fmt.Errorf("start adb server on port %d: %w (%v)", c.port, ErrADBMissing, lerr)
	}
	// One start at a time in this process: two callers starting the server together
	// make one `adb start-server` lose the port ("didn't ACK") though a server runs.
	c.startMu.Lock()
	defer c.startMu.Unlock()
	if _, err := c.ServerVersion(ctx); err == nil {
		return nil // started meanwhile, by another caller or process
	}
	if err := c.startServer(ctx, path); err != nil {
		// Another process may have won the race to the port: a server that answers
		// now is as good as ours.
		if _, verr := c.ServerVersion(ctx); verr == nil {
			return nil
		}
		return err
	}
	if _, err := c.ServerVersion(ctx); err != nil {
		return fmt.Errorf("adb server started but does not answer at %s: %w", c.Addr(), err)
	}
	return nil
}

// serverStartTimeout bounds one `adb start-server`.
const serverStartTimeout = 15 * time.Second

// startServer runs `adb -P PORT start-server`, which forks the server and
// returns once it listens.
func (c *Client) startServer(ctx context.Context, adbPath string) error {
	// A start is finished even when ctx ends meanwhile: killing `adb start-server`
	// after it forked leaves the server coming up on its own after the caller has
	// gone, unseen by the caller's cleanup (a quit, a test's kill-server). adb's own
	// start waits at most a few seconds for the server's reply; the bound is ours.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), serverStartTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, adbPath, "-P", strconv.Itoa(c.port), "start-server")
	// The forked server may keep inherited descriptors; never wait on them.
	cmd.WaitDelay = 2 * time.Second
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("run %s -P %d start-server: %w: %s", adbPath, c.port, err, strings.TrimSpace(string(out)))
	}
	return nil
}

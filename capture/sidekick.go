package capture

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"
)

// SidekickProtocol is the bridge protocol version this client speaks.
const SidekickProtocol = "1.3"

// ErrNoSidekick means the app does not carry the FixThis sidekick (or it is not
// running): use uiautomator instead.
var ErrNoSidekick = errors.New("no FixThis sidekick in the app")

// maxSidekickFrame bounds one message; a real screen is well under a megabyte.
const maxSidekickFrame = 32 << 20

// SidekickSession is files/fixthis/session.json inside the app's data directory.
type SidekickSession struct {
	Protocol string `json:"protocol"`
	Socket   string `json:"socket"`
	Token    string `json:"token"`
}

// ParseSidekickSession validates a session file: protocol 1.x, an abstract socket
// named fixthis_<pkg>, and a token.
func ParseSidekickSession(data []byte) (SidekickSession, error) {
	var s SidekickSession
	if err := json.Unmarshal(data, &s); err != nil {
		return s, fmt.Errorf("%w: session.json: %v", ErrNoSidekick, err)
	}
	switch {
	case !strings.HasPrefix(s.Protocol, "1."):
		return s, fmt.Errorf("%w: unsupported protocol %q (want %s)", ErrNoSidekick, s.Protocol, SidekickProtocol)
	case !strings.HasPrefix(s.Socket, "fixthis_"):
		return s, fmt.Errorf("%w: unexpected socket %q", ErrNoSidekick, s.Socket)
	case s.Token == "":
		return s, fmt.Errorf("%w: session.json has no token", ErrNoSidekick)
	}
	return s, nil
}

// ReadSidekickSession reads the session file with `run-as PKG cat
// files/fixthis/session.json` (works for debuggable apps only).
func ReadSidekickSession(ctx context.Context, dev Device, pkg string) (SidekickSession, error) {
	stdout, stderr, code, err := dev.Shell(ctx, "run-as "+shellQuote(pkg)+" cat files/fixthis/session.json")
	if err != nil {
		return SidekickSession{}, fmt.Errorf("read sidekick session of %s: %w", pkg, err)
	}
	if code != 0 {
		return SidekickSession{}, fmt.Errorf("%w: run-as %s: exit %d: %s", ErrNoSidekick, pkg, code,
			strings.TrimSpace(string(stderr)+string(stdout)))
	}
	return ParseSidekickSession(stdout)
}

// SidekickError is an error answer of the sidekick.
type SidekickError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *SidekickError) Error() string { return "sidekick: " + e.Code + ": " + e.Message }

// SidekickScreen is the answer to inspectCurrentScreen.
type SidekickScreen struct {
	Protocol string `json:"protocol"`
	Package  string `json:"package"`
	Activity string `json:"activity"`
	Width    int    `json:"width"`
	Height   int    `json:"height"`
	Nodes    []Node `json:"nodes"`
}

// SidekickClient talks to the sidekick over the socket the app forwards
// (localabstract:fixthis_<pkg> → a local TCP port): 4-byte big-endian length, then a
// JSON message. One connection is kept for the session and re-dialled once when it
// turns out dead. Calls are serialised; it is safe for concurrent use.
type SidekickClient struct {
	Session SidekickSession
	// Dial opens a connection to the forwarded socket.
	Dial func(ctx context.Context) (net.Conn, error)

	mu     sync.Mutex
	conn   net.Conn
	nextID int64
}

type sidekickRequest struct {
	ID     int64  `json:"id"`
	Token  string `json:"token"`
	Method string `json:"method"`
	Params any    `json:"params"`
}

type sidekickResponse struct {
	ID     int64           `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *SidekickError  `json:"error"`
}

// Call sends one request and decodes the result into out (may be nil).
func (c *SidekickClient) Call(ctx context.Context, method string, params, out any) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	reused := c.conn != nil
	raw, err := c.roundTrip(ctx, method, params)
	if err != nil && reused && ctx.Err() == nil && !isSidekickAnswer(err) {
		// The kept connection died (app restarted, forward dropped): dial again once.
		raw, err = c.roundTrip(ctx, method, params)
	}
	if err != nil {
		return fmt.Errorf("sidekick %s: %w", method, err)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			return fmt.Errorf("sidekick %s: decode result: %w", method, err)
		}
	}
	return nil
}

func isSidekickAnswer(err error) bool {
	var se *SidekickError
	return errors.As(err, &se)
}

func (c *SidekickClient) roundTrip(ctx context.Context, method string, params any) (json.RawMessage, error) {
	if c.conn == nil {
		if c.Dial == nil {
			return nil, fmt.Errorf("%w: no dialer", ErrNoSidekick)
		}
		conn, err := c.Dial(ctx)
		if err != nil {
			return nil, fmt.Errorf("dial: %w", err)
		}
		c.conn = conn
	}
	conn := c.conn
	fail := func(err error) (json.RawMessage, error) {
		conn.Close()
		c.conn = nil
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	deadline, _ := ctx.Deadline()
	if err := conn.SetDeadline(deadline); err != nil {
		return fail(err)
	}
	// A cancelled context interrupts a blocked read or write at once.
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()

	c.nextID++
	id := c.nextID
	if params == nil {
		params = struct{}{}
	}
	body, err := json.Marshal(sidekickRequest{ID: id, Token: c.Session.Token, Method: method, Params: params})
	if err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	if err := WriteSidekickFrame(conn, body); err != nil {
		return fail(fmt.Errorf("write: %w", err))
	}
	for {
		msg, err := ReadSidekickFrame(conn)
		if err != nil {
			return fail(fmt.Errorf("read: %w", err))
		}
		var resp sidekickResponse
		if err := json.Unmarshal(msg, &resp); err != nil {
			return fail(fmt.Errorf("decode response: %w", err))
		}
		if resp.ID != id {
			continue // a late answer to a call that was given up on
		}
		if resp.Error != nil {
			return nil, resp.Error
		}
		return resp.Result, nil
	}
}

// InspectCurrentScreen asks for the Compose semantics of the screen. Node texts of
// password and editable fields are redacted here too, whatever the sidekick sent.
func (c *SidekickClient) InspectCurrentScreen(ctx context.Context) (*SidekickScreen, error) {
	var s SidekickScreen
	if err := c.Call(ctx, "inspectCurrentScreen", nil, &s); err != nil {
		return nil, err
	}
	for i := range s.Nodes {
		n := &s.Nodes[i]
		if n.TestTag == "" {
			n.TestTag = testTagFrom(n.ResourceID)
		}
		if n.Role == "" {
			n.Role = roleFor(n.Class)
		}
		n.Editable = n.Editable || isEditableClass(n.Class)
		redact(n)
	}
	return &s, nil
}

// Close drops the kept connection.
func (c *SidekickClient) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn == nil {
		return nil
	}
	err := c.conn.Close()
	c.conn = nil
	return err
}

// WriteSidekickFrame writes one message of the sidekick protocol: a 4-byte big-endian
// length, then the JSON body. Both ends (this client and the simulated device's app)
// use it, so the framing cannot drift.
func WriteSidekickFrame(w io.Writer, body []byte) error {
	buf := make([]byte, 4+len(body))
	binary.BigEndian.PutUint32(buf, uint32(len(body)))
	copy(buf[4:], body)
	_, err := w.Write(buf)
	return err
}

// ReadSidekickFrame reads one message written by WriteSidekickFrame, refusing frames
// over 32 MiB (a real screen is well under a megabyte).
func ReadSidekickFrame(r io.Reader) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n > maxSidekickFrame {
		return nil, fmt.Errorf("frame of %d bytes exceeds %d", n, maxSidekickFrame)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, err
	}
	return body, nil
}

package capture

import (
	"context"
	"encoding/json"
	"errors"
	"fixthis/adb"
	"fixthis/internal/sidekick"
	"fmt"
	"net"
	"strings"
	"sync"
	"time"
)

// The protocol's wire types live in internal/sidekick, shared with the simulated
// device; these names are how the rest of the host code refers to them.
type (
	SidekickSession = sidekick.Session
	SidekickError   = sidekick.Error
	SidekickScreen  = sidekick.Screen
)

// ErrNoSidekick means the app does not carry the FixThis sidekick (or it is not
// running): use uiautomator instead.
var ErrNoSidekick = sidekick.ErrNoSidekick

// ReadSidekickSession reads the session file with `run-as PKG cat
// files/fixthis/session.json` (works for debuggable apps only).
func ReadSidekickSession(ctx context.Context, dev Device, pkg string) (SidekickSession, error) {
	if err := adb.CheckPackage(pkg); err != nil {
		return SidekickSession{}, fmt.Errorf("%w: %w", ErrNoSidekick, err)
	}
	res, err := dev.Shell(ctx, adb.Command("run-as", pkg, "cat", sidekick.SessionPath))
	if err != nil {
		return SidekickSession{}, fmt.Errorf("read sidekick session of %s: %w", pkg, err)
	}
	if res.ExitCode != 0 {
		return SidekickSession{}, fmt.Errorf("%w: run-as %s: exit %d: %s", ErrNoSidekick, pkg, res.ExitCode,
			strings.TrimSpace(string(res.Stderr)+string(res.Stdout)))
	}
	return sidekick.ParseSession(res.Stdout)
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
	rawParams, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("encode params: %w", err)
	}
	body, err := json.Marshal(sidekick.Request{ID: id, Token: c.Session.Token, Method: method, Params: rawParams})
	if err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	if err := sidekick.WriteFrame(conn, body); err != nil {
		return fail(fmt.Errorf("write: %w", err))
	}
	for {
		msg, err := sidekick.ReadFrame(conn)
		if err != nil {
			return fail(fmt.Errorf("read: %w", err))
		}
		var resp sidekick.Response
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
	if err := c.Call(ctx, sidekick.MethodInspectCurrentScreen, nil, &s); err != nil {
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

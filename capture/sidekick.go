package capture

import (
	"context"
	"encoding/json"
	"errors"
	"fixthis/adb"
	"fixthis/internal/sidekick"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The protocol's wire types live in internal/sidekick, shared with the simulated
// device; these names are how the rest of the host code refers to them.
type (
	SidekickSession    = sidekick.Session
	SidekickError      = sidekick.Error
	SidekickInspection = sidekick.ScreenInspection
)

// ErrNoSidekick means the app does not carry the FixThis sidekick (or it is not
// running): use uiautomator instead.
var ErrNoSidekick = sidekick.ErrNoSidekick

// SidekickCallTimeout bounds a call whose context has no deadline of its own.
const SidekickCallTimeout = 5 * time.Second

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
	return sidekick.ParseSession(res.Stdout, pkg)
}

// errClosedBeforeResponse: the connection closed before any answer, which is what an
// adb forward to an abstract socket nobody listens on does.
var errClosedBeforeResponse = errors.New("bridge closed before sending a response")

// SidekickClient talks to the sidekick over the app's abstract socket forwarded to a
// local port: 4-byte big-endian length, then a JSON message, string request ids.
// The socket the app last said it is bound to (status.socketName, which upstream
// advises hosts to use) is tried first, then the session's, then the other names the
// sidekick binds when a stale socket holds the first (fixthis_<pkg>, -1, -2). One
// connection is kept and re-dialled once when it turns out dead; an UNAUTHORIZED
// answer re-reads the session file once (the app restarted with a new token). A call
// that runs out of time is given up without closing the connection (see
// sidekickConn). Calls are serialised; it is safe for concurrent use.
type SidekickClient struct {
	Session SidekickSession
	// Dial opens a connection to the app's abstract socket of that name.
	Dial func(ctx context.Context, socket string) (net.Conn, error)
	// Reread reads the session file again; nil: an UNAUTHORIZED answer is final.
	Reread func(ctx context.Context) (SidekickSession, error)

	mu     sync.Mutex
	conn   *sidekickConn
	socket string // the socket name that answered, "" until one did
	// bound is the name status.socketName reported, "" until a status said.
	bound  string
	nextID int64
}

// Call sends one request and decodes the result into out (may be nil). A context
// without a deadline gets SidekickCallTimeout.
func (c *SidekickClient) Call(ctx context.Context, method string, params, out any) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, SidekickCallTimeout)
		defer cancel()
	}
	rawParams := json.RawMessage("{}")
	if params != nil {
		b, err := json.Marshal(params)
		if err != nil {
			return fmt.Errorf("sidekick %s: encode params: %w", method, err)
		}
		rawParams = b
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	raw, err := c.call(ctx, method, rawParams)
	var se *SidekickError
	if errors.As(err, &se) && se.Code == sidekick.CodeUnauthorized && c.Reread != nil {
		sess, rerr := c.Reread(ctx)
		if rerr != nil {
			return fmt.Errorf("sidekick %s: %w; re-read session: %v", method, err, rerr)
		}
		if sess.SocketName != c.Session.SocketName {
			c.dropLocked()
			c.socket, c.bound = "", ""
		}
		c.Session = sess
		raw, err = c.call(ctx, method, rawParams)
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

// socketNames is the order to try the app's socket names in: the bound one the
// app reported, the session's, then the rest of the sidekick's candidates.
func (c *SidekickClient) socketNames() []string {
	var names []string
	add := func(n string) {
		if n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	add(c.bound)
	add(c.Session.SocketName)
	for i := range sidekick.SocketAttempts {
		add(sidekick.SocketCandidate(sidekick.BaseSocketName(c.Session.PackageName), i))
	}
	return names
}

// call runs one round trip, on the kept connection when there is one (dialling once
// more when it turns out dead), else trying the socket names in turn.
func (c *SidekickClient) call(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	if c.conn != nil {
		raw, err := c.roundTrip(ctx, method, params)
		if err == nil || isSidekickAnswer(err) || ctx.Err() != nil {
			return raw, err
		}
		// The kept connection died (app restarted, forward dropped): dial again.
	}
	names := []string{c.socket}
	if c.socket == "" {
		names = c.socketNames()
	}
	var lastErr error
	for _, name := range names {
		if c.Dial == nil {
			return nil, fmt.Errorf("%w: no dialer", ErrNoSidekick)
		}
		conn, err := c.Dial(ctx, name)
		if err != nil {
			lastErr = fmt.Errorf("dial %s: %w", name, err)
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			continue
		}
		c.conn = newSidekickConn(conn)
		raw, err := c.roundTrip(ctx, method, params)
		if err == nil || isSidekickAnswer(err) {
			c.socket = name
			return raw, err
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		// Most often errClosedBeforeResponse: nobody listens on that name (a write
		// into the hung-up forward may fail first). Try the next one.
		lastErr = fmt.Errorf("%s: %w", name, err)
	}
	if c.socket != "" {
		c.socket = "" // next time, try every name again
	}
	return nil, lastErr
}

func isSidekickAnswer(err error) bool {
	var se *SidekickError
	return errors.As(err, &se)
}

func (c *SidekickClient) dropLocked() {
	if c.conn != nil {
		c.conn.close()
		c.conn = nil
	}
}

// roundTrip writes one request on the kept connection and waits for its answer.
// When ctx ends first the call is abandoned and the connection kept: the app is
// still working on the request and will write its answer, which the reader drops.
// Only a connection that failed (a write error, the reader stopped) is dropped.
func (c *SidekickClient) roundTrip(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	sc := c.conn
	if sc.dead() {
		c.dropLocked()
		return nil, sc.err
	}
	c.nextID++
	id := "req_" + strconv.FormatInt(c.nextID, 10)
	body, err := json.Marshal(sidekick.Request{ID: id, Token: c.Session.Token, Method: method, Params: params})
	if err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	answer := sc.expect(id)
	deadline, _ := ctx.Deadline()
	if err := sc.conn.SetWriteDeadline(deadline); err != nil {
		c.dropLocked()
		return nil, err
	}
	// A cancelled context interrupts a blocked write at once. A request cut halfway
	// leaves the app waiting for the rest of a frame, not working on an answer, so
	// that connection is closed.
	stop := context.AfterFunc(ctx, func() { sc.conn.SetWriteDeadline(time.Unix(1, 0)) })
	err = sidekick.WriteFrame(sc.conn, body)
	stop()
	if err != nil {
		sc.abandon(id)
		c.dropLocked()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("write: %w", err)
	}
	select {
	case resp := <-answer:
		if !resp.OK {
			if resp.Error == nil {
				return nil, &SidekickError{Code: "BRIDGE_ERROR", Message: "bridge request failed"}
			}
			return nil, resp.Error
		}
		if resp.ID == nil {
			c.dropLocked()
			return nil, errors.New("success answer without an id")
		}
		return resp.Result, nil
	case <-sc.done:
		c.dropLocked()
		return nil, sc.err
	case <-ctx.Done():
		sc.abandon(id)
		return nil, ctx.Err()
	}
}

// DroppedAnswers counts the late answers the kept connection read and threw away
// (answers to calls that had been given up).
func (c *SidekickClient) DroppedAnswers() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn == nil {
		return 0
	}
	return c.conn.Dropped()
}

// Heartbeat tells the sidekick the host is connected (its status pill shows so for
// a few seconds after each one).
func (c *SidekickClient) Heartbeat(ctx context.Context) error {
	var res sidekick.HeartbeatResult
	if err := c.Call(ctx, sidekick.MethodHeartbeat, nil, &res); err != nil {
		return err
	}
	if !res.Connected {
		return errors.New("sidekick heartbeat: not connected")
	}
	return nil
}

// Status asks the sidekick what it is bound to and what it sees (BridgeStatus).
func (c *SidekickClient) Status(ctx context.Context) (sidekick.Status, error) {
	var st sidekick.Status
	err := c.Call(ctx, sidekick.MethodStatus, nil, &st)
	return st, err
}

// Connect opens the bridge: a heartbeat (which also proves the socket answers),
// then status, which must report protocol exactly sidekick.Version. The socket name
// status reports is the one later calls dial first.
func (c *SidekickClient) Connect(ctx context.Context) (sidekick.Status, error) {
	if err := c.Heartbeat(ctx); err != nil {
		return sidekick.Status{}, err
	}
	st, err := c.Status(ctx)
	if err != nil {
		return st, err
	}
	if st.BridgeProtocolVersion != sidekick.Version {
		return st, sidekick.VersionError(st.BridgeProtocolVersion)
	}
	if st.SocketName != nil && sidekick.SocketAttempt(*st.SocketName, c.Session.PackageName) >= 0 {
		c.mu.Lock()
		c.bound = *st.SocketName
		c.mu.Unlock()
	}
	return st, nil
}

// InspectCurrentScreen asks for the Compose semantics of the resumed activity.
func (c *SidekickClient) InspectCurrentScreen(ctx context.Context) (*SidekickInspection, error) {
	var s SidekickInspection
	if err := c.Call(ctx, sidekick.MethodInspectCurrentScreen, nil, &s); err != nil {
		return nil, err
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
	err := c.conn.close()
	c.conn = nil
	return err
}

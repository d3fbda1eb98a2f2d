// Package realtime holds one OpenAI Realtime conversation over a WebSocket the way
// FixThis's interviewer needs it: dial with the bearer key, the session.created /
// session.update / session.updated handshake, a replacement connection with backoff
// when one drops (at most 5 connects a minute), one writer at a time, and the
// response gate (conversation items wait while a response is active and go in order
// on response.done; a response.create asked for meanwhile follows them). It knows
// nothing of anchors, units or transcripts: a Handler hears every event and every
// change of the connection.
package realtime

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// Timing and bounds of the upstream connection.
const (
	HandshakeTimeout = 10 * time.Second // dial, session.created, session.updated
	writeTimeout     = 5 * time.Second
	closeTimeout     = 300 * time.Millisecond // the close frame; the socket goes anyway
	maxConnectsPer   = time.Minute
	maxConnects      = 5 // connects per minute, the first one included
	backoffFirst     = 500 * time.Millisecond
	backoffMax       = 10 * time.Second
	// MaxEventBytes is the largest server frame read. The largest the API sends is
	// an item echoing a screenshot FixThis sent (a 1280-px JPEG, a few hundred KB
	// in base64); a bigger frame ends the connection instead of filling memory.
	MaxEventBytes = 4 << 20
	// maxHeld bounds the items waiting for a response to end: an upstream that
	// never ends its response cannot make them pile up.
	maxHeld = 64
)

// ErrKeyRefused marks a 401 from upstream: no retry helps.
var ErrKeyRefused = errors.New("key refused")

// Phase is where the connection stands.
type Phase int

// The phases a Handler hears of, in the order they can come.
const (
	Connecting   Phase = iota // the first connect is under way
	Live                      // a connection finished its handshake; Send works
	Reconnecting              // the live connection dropped (Err: the last attempt's failure, nil at first)
	Failed                    // no connection can be made (Err says why); the Conn is over
	Closed                    // Close was called; the Conn is over
)

// Status is a change of the connection.
type Status struct {
	Phase Phase
	Conn  int   // the connection number, from 1, when Live
	Err   error // Reconnecting, Failed
}

// Handler is what a Conn reports to. Its methods run on the Conn's goroutine, one
// at a time, so a slow one holds the conversation back.
type Handler interface {
	// Opened is called when connection n finished its handshake, before it is live:
	// what it returns is written first, in order, before any other client event.
	// replaced says an earlier connection dropped.
	Opened(n int, replaced bool) (seed [][]byte)
	// Event is one server event of the live connection, in the order received.
	Event(ev Event)
	// Status is a change of phase. Failed and Closed are the last call.
	Status(s Status)
}

// Options configure a Conn.
type Options struct {
	URL    string // ws(s)://…/realtime?model=…
	Key    string // the bearer key: never logged, never in an error
	Dialer *websocket.Dialer
	// Setup returns the session.update sent on every connection.
	Setup func() ([]byte, error)
	Log   *slog.Logger
	// Handshake bounds the dial and handshake (0: HandshakeTimeout).
	Handshake time.Duration
}

// Conn is one conversation, held over as many connections as it takes until Close.
type Conn struct {
	opts Options
	h    Handler
	ctx  context.Context
	stop context.CancelFunc
	done chan struct{}

	mu       sync.Mutex
	ws       *websocket.Conn // the live connection; nil between connections
	n        int             // connections made so far
	connects []time.Time
	// responding: a response is active upstream; items wait for its end.
	responding bool
	held       [][]byte // conversation.item.create events waiting for response.done
	createNext bool     // send response.create once the active response ends

	wmu sync.Mutex // one writer on the socket
}

// Open starts connecting and returns at once; h hears how it goes.
func Open(ctx context.Context, opts Options, h Handler) *Conn {
	c := New(ctx, opts, h)
	c.Start()
	return c
}

// New is Open in two steps, for a handler that must hold the Conn before it hears
// anything: New makes it, Start starts connecting.
func New(ctx context.Context, opts Options, h Handler) *Conn {
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	if opts.Dialer == nil {
		d := *websocket.DefaultDialer
		opts.Dialer = &d
	}
	if opts.Handshake == 0 {
		opts.Handshake = HandshakeTimeout
	}
	c := &Conn{opts: opts, h: h, done: make(chan struct{})}
	c.ctx, c.stop = context.WithCancel(ctx)
	return c
}

// Start starts connecting; call it once.
func (c *Conn) Start() { go c.run() }

// Close ends the conversation: the socket closes with a close frame, within a
// second even when a write is stuck.
func (c *Conn) Close() {
	c.stop()
	select {
	case <-c.done:
	case <-time.After(time.Second):
	}
}

// Done is closed once the Handler heard Failed or Closed.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Number is the live connection's number, 0 between connections.
func (c *Conn) Number() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ws == nil {
		return 0
	}
	return c.n
}

func (c *Conn) run() {
	defer close(c.done)
	c.h.Status(Status{Phase: Connecting})
	ws, err := c.connect()
	if err != nil {
		c.end(err)
		return
	}
	replaced := false
	for {
		c.attach(ws, replaced)
		err := c.read(ws)
		c.detach()
		if c.ctx.Err() != nil {
			c.end(nil)
			return
		}
		c.opts.Log.Warn("voice: interviewer connection lost", "err", err)
		if ws, err = c.reconnect(); err != nil {
			c.end(err)
			return
		}
		replaced = true
	}
}

// end reports the last phase: Closed when Close was called, else Failed.
func (c *Conn) end(err error) {
	if c.ctx.Err() != nil {
		c.h.Status(Status{Phase: Closed})
		return
	}
	c.stop()
	c.h.Status(Status{Phase: Failed, Err: err})
}

// attach makes ws the live connection once the handler's seed is written on it.
func (c *Conn) attach(ws *websocket.Conn, replaced bool) {
	c.mu.Lock()
	c.n++
	n := c.n
	c.mu.Unlock()
	for _, msg := range c.h.Opened(n, replaced) {
		c.writeOn(ws, msg)
	}
	c.mu.Lock()
	c.ws = ws
	c.responding, c.held, c.createNext = false, nil, false
	c.mu.Unlock()
	c.h.Status(Status{Phase: Live, Conn: n})
}

func (c *Conn) detach() {
	c.mu.Lock()
	c.ws = nil
	c.mu.Unlock()
}

// read handles the server events of ws until it fails or Close is called.
func (c *Conn) read(ws *websocket.Conn) error {
	ws.SetReadLimit(MaxEventBytes)
	stop := context.AfterFunc(c.ctx, func() { closeSocket(ws) })
	defer stop()
	defer ws.Close()
	for {
		_, raw, err := ws.ReadMessage()
		if err != nil {
			if errors.Is(err, websocket.ErrReadLimit) {
				return fmt.Errorf("the server sent an event over %d MB", MaxEventBytes>>20)
			}
			return scrub(err)
		}
		ev, err := Decode(raw)
		if err != nil {
			c.opts.Log.Warn("voice: unreadable server event", "bytes", len(raw))
			continue
		}
		if ev.Type == "response.created" {
			c.mu.Lock()
			c.responding = true
			c.mu.Unlock()
		}
		c.h.Event(ev)
		if ev.Type == "response.done" {
			c.responseDone()
		}
	}
}

// closeSocket says goodbye and closes. WriteControl may run beside a blocked
// writer, so a stuck audio write cannot hold Close past closeTimeout.
func closeSocket(ws *websocket.Conn) {
	_ = ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(closeTimeout))
	_ = ws.Close()
}

// reconnect replaces a lost connection with backoff, at most maxConnects a minute.
func (c *Conn) reconnect() (*websocket.Conn, error) {
	c.h.Status(Status{Phase: Reconnecting})
	delay := backoffFirst
	for {
		wait := max(delay, c.limitWait(time.Now()))
		select {
		case <-c.ctx.Done():
			return nil, c.ctx.Err()
		case <-time.After(wait):
		}
		ws, err := c.connect()
		if err == nil {
			return ws, nil
		}
		if errors.Is(err, ErrKeyRefused) || c.ctx.Err() != nil {
			return nil, err
		}
		c.opts.Log.Warn("voice: reconnect failed", "err", err, "retryIn", delay)
		c.h.Status(Status{Phase: Reconnecting, Err: err})
		delay = min(2*delay, backoffMax)
	}
}

// limitWait is how long until another connect stays within maxConnects a minute.
func (c *Conn) limitWait(now time.Time) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	var recent []time.Time
	for _, t := range c.connects {
		if now.Sub(t) < maxConnectsPer {
			recent = append(recent, t)
		}
	}
	c.connects = recent
	if len(recent) < maxConnects {
		return 0
	}
	return maxConnectsPer - now.Sub(recent[len(recent)-maxConnects])
}

// scrub drops anything from an error that could carry a URL's query (never the
// key, which travels in a header, but the message stays short and plain).
func scrub(err error) error {
	msg := err.Error()
	if i := strings.Index(msg, "?"); i >= 0 {
		if j := strings.IndexAny(msg[i:], " \""); j >= 0 {
			msg = msg[:i] + msg[i+j:]
		} else {
			msg = msg[:i]
		}
	}
	return errors.New(msg)
}

// bearer is the header that carries the key.
func (c *Conn) bearer() http.Header {
	return http.Header{"Authorization": {"Bearer " + c.opts.Key}}
}

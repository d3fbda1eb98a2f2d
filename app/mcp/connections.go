package mcp

import (
	"context"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"fixthis/app/store"
)

// connections keeps the store's rows of this process's open agent
// connections fresh: the stdio pipe while the process runs, each Streamable
// HTTP session from initialize until it is deleted or idles out. Claims,
// batch reservations and "working" presence rest on those rows, so they end
// when the connection ends (at once when it closes, within
// store.ConnectionTTL when the process dies).
type connections struct {
	store  *store.Store
	prefix string
	log    interface {
		Warn(msg string, args ...any)
	}
	onEnd func(agent string)

	mu      sync.Mutex
	live    map[string]bool
	running bool
}

// refreshEvery is well inside store.ConnectionTTL, so one slow write does
// not let a live connection lapse.
const refreshEvery = heartbeatEvery

// agentID names the connection a tool call arrives on: this process's id
// plus the MCP session id. A call without a session (in-process tests) is
// one connection per process.
func (c *connections) agentID(ctx context.Context) string {
	sid := "direct"
	if s := server.ClientSessionFromContext(ctx); s != nil && s.SessionID() != "" {
		sid = s.SessionID()
	}
	return c.prefix + "/" + sid
}

// bind marks the call's connection live and names it in the context the
// store reads (store.WithAgent).
func (c *connections) bind(ctx context.Context) context.Context {
	id := c.agentID(ctx)
	c.add(id)
	return store.WithAgent(ctx, id)
}

func (c *connections) add(id string) {
	c.mu.Lock()
	if c.live[id] {
		c.mu.Unlock()
		return
	}
	c.live[id] = true
	start := !c.running
	c.running = true
	c.mu.Unlock()
	c.touch([]string{id})
	if start {
		go c.refresh()
	}
}

// end forgets a closed connection: its claims and reservations are free.
func (c *connections) end(id string) {
	c.mu.Lock()
	known := c.live[id]
	delete(c.live, id)
	c.mu.Unlock()
	if !known {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := c.store.EndConnection(ctx, id); err != nil {
		c.log.Warn("end agent connection", "err", err)
	}
	if c.onEnd != nil {
		c.onEnd(id)
	}
}

// count is how many connections of this process are open.
func (c *connections) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.live)
}

// refresh runs while any connection is open.
func (c *connections) refresh() {
	tick := time.NewTicker(refreshEvery)
	defer tick.Stop()
	for range tick.C {
		c.mu.Lock()
		ids := make([]string, 0, len(c.live))
		for id := range c.live {
			ids = append(ids, id)
		}
		if len(ids) == 0 {
			c.running = false
			c.mu.Unlock()
			return
		}
		c.mu.Unlock()
		c.touch(ids)
	}
}

func (c *connections) touch(ids []string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := c.store.TouchConnections(ctx, ids); err != nil {
		c.log.Warn("refresh agent connections", "err", err)
	}
}

// hooks registers and ends connections with the MCP sessions.
func (c *connections) hooks() *server.Hooks {
	h := &server.Hooks{}
	h.AddOnRegisterSession(func(ctx context.Context, s server.ClientSession) { c.add(c.prefix + "/" + s.SessionID()) })
	h.AddOnUnregisterSession(func(ctx context.Context, s server.ClientSession) { c.end(c.prefix + "/" + s.SessionID()) })
	return h
}

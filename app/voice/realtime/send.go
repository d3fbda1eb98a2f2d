package realtime

import (
	"time"

	"github.com/gorilla/websocket"
)

// Send writes one client event on the live connection; false when there is none or
// the write failed (the read loop then sees the connection go).
func (c *Conn) Send(msg []byte) bool {
	c.mu.Lock()
	ws := c.ws
	c.mu.Unlock()
	if ws == nil {
		return false
	}
	return c.writeOn(ws, msg)
}

func (c *Conn) writeOn(ws *websocket.Conn, msg []byte) bool {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_ = ws.SetWriteDeadline(time.Now().Add(writeTimeout))
	if err := ws.WriteMessage(websocket.TextMessage, msg); err != nil {
		_ = ws.Close()
		return false
	}
	return true
}

// SendItem sends a conversation item now, or holds it while a response is active
// (it goes, in order, on response.done). False when there is no live connection,
// or when maxHeld items already wait.
func (c *Conn) SendItem(msg []byte) bool {
	c.mu.Lock()
	if c.ws == nil {
		c.mu.Unlock()
		return false
	}
	if c.responding {
		ok := len(c.held) < maxHeld
		if ok {
			c.held = append(c.held, msg)
		}
		c.mu.Unlock()
		return ok
	}
	c.mu.Unlock()
	return c.Send(msg)
}

// RequestResponse asks for a response: now when none is active, else once the
// active one is done (after the items held for it).
func (c *Conn) RequestResponse() {
	c.mu.Lock()
	if c.responding {
		c.createNext = true
		c.mu.Unlock()
		return
	}
	c.mu.Unlock()
	c.Send([]byte(`{"type":"response.create"}`))
}

// Responding says whether a response is active upstream.
func (c *Conn) Responding() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.responding
}

// responseDone sends what waited for the response to end: the held items in order,
// then a deferred response.create.
func (c *Conn) responseDone() {
	c.mu.Lock()
	c.responding = false
	held, create := c.held, c.createNext
	c.held, c.createNext = nil, false
	c.mu.Unlock()
	for _, msg := range held {
		c.Send(msg)
	}
	if create {
		c.Send([]byte(`{"type":"response.create"}`))
	}
}

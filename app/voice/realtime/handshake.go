package realtime

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"fixthis/app/errcode"

	"github.com/gorilla/websocket"
)

// connect dials, waits for session.created, sends the Setup's session.update and
// waits for session.updated. It counts against the connect limit.
func (c *Conn) connect() (*websocket.Conn, error) {
	c.mu.Lock()
	c.connects = append(c.connects, time.Now())
	c.mu.Unlock()
	hctx, cancel := context.WithTimeout(c.ctx, c.opts.Handshake)
	defer cancel()
	ws, err := c.handshake(hctx)
	if err != nil && errors.Is(hctx.Err(), context.DeadlineExceeded) {
		return nil, fmt.Errorf("the server did not finish the session handshake within %s", c.opts.Handshake)
	}
	return ws, err
}

func (c *Conn) handshake(ctx context.Context) (*websocket.Conn, error) {
	ws, resp, err := c.opts.Dialer.DialContext(ctx, c.opts.URL, c.bearer())
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
	if err != nil {
		if resp != nil && resp.StatusCode == http.StatusUnauthorized {
			return nil, ErrKeyRefused
		}
		if resp != nil {
			return nil, fmt.Errorf("HTTP %d", resp.StatusCode)
		}
		return nil, scrub(err)
	}
	ws.SetReadLimit(MaxEventBytes)
	stop := context.AfterFunc(ctx, func() { _ = ws.SetReadDeadline(time.Now()) })
	defer stop()
	fail := func(err error) (*websocket.Conn, error) {
		ws.Close()
		return nil, err
	}
	if err := expect(ws, "session.created"); err != nil {
		return fail(err)
	}
	update, err := c.opts.Setup()
	if err != nil {
		return fail(err)
	}
	if err := ws.WriteMessage(websocket.TextMessage, update); err != nil {
		return fail(scrub(err))
	}
	if err := expect(ws, "session.updated"); err != nil {
		return fail(err)
	}
	if !stop() {
		return fail(ctx.Err()) // the deadline fell as the handshake ended
	}
	_ = ws.SetReadDeadline(time.Time{})
	return ws, nil
}

// expect reads events until one of type typ; an error event fails the handshake
// and is quoted short.
func expect(ws *websocket.Conn, typ string) error {
	for {
		_, raw, err := ws.ReadMessage()
		if err != nil {
			return fmt.Errorf("waiting for %s: %w", typ, scrub(err))
		}
		ev, err := Decode(raw)
		if err != nil {
			return fmt.Errorf("waiting for %s: the server sent something that is not JSON", typ)
		}
		switch ev.Type {
		case typ:
			return nil
		case "error":
			if ev.Error != nil && ev.Error.Message != "" {
				return fmt.Errorf("the server refused the session: %s", errcode.Quote(ev.Error.Message))
			}
			return errors.New("the server refused the session")
		}
	}
}

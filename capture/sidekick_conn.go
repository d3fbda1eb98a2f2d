package capture

import (
	"encoding/json"
	"errors"
	"fixthis/internal/sidekick"
	"fmt"
	"io"
	"net"
	"sync"
)

// sidekickConn is one connection to the app's bridge with a reader of its own. The
// reader hands each answer to the call waiting for its id and drops answers nobody
// waits for any more: a call that hit its deadline stops waiting, but the
// connection stays up and the late answer is read and thrown away.
//
// Closing the socket while the app is still working on a request would be unsafe:
// upstream's BridgeServer.handleClient (BridgeServer.kt:143-144 at v1.5.0) writes
// the answer outside any catch, in a coroutine with no exception handler, so a write
// into a closed socket throws an uncaught IOException in the app's process.
type sidekickConn struct {
	conn net.Conn
	done chan struct{} // closed when the reader stops: the connection is dead
	err  error         // why the reader stopped; read after done is closed

	mu      sync.Mutex
	waiting map[string]chan sidekick.Response // request id → where its answer goes
	dropped int                               // late answers thrown away
}

func newSidekickConn(conn net.Conn) *sidekickConn {
	sc := &sidekickConn{conn: conn, done: make(chan struct{}), waiting: map[string]chan sidekick.Response{}}
	go sc.read()
	return sc
}

func (sc *sidekickConn) read() {
	defer close(sc.done)
	for {
		msg, err := sidekick.ReadFrame(sc.conn)
		if errors.Is(err, io.EOF) {
			sc.err = errClosedBeforeResponse
			return
		}
		if err != nil {
			sc.err = fmt.Errorf("read: %w", err)
			return
		}
		var resp sidekick.Response
		if err := json.Unmarshal(msg, &resp); err != nil {
			sc.err = fmt.Errorf("decode response: %w", err)
			sc.conn.Close() // the stream is not the bridge's: nothing more can be read
			return
		}
		sc.deliver(resp)
	}
}

// deliver hands resp to the call waiting for it. An answer without an id (the app
// could not read a request: BAD_REQUEST) goes to the one call waiting, if only one is.
func (sc *sidekickConn) deliver(resp sidekick.Response) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	var ch chan sidekick.Response
	if resp.ID != nil {
		ch = sc.waiting[*resp.ID]
		delete(sc.waiting, *resp.ID)
	} else if len(sc.waiting) == 1 {
		for id, c := range sc.waiting {
			ch = c
			delete(sc.waiting, id)
		}
	}
	if ch == nil {
		sc.dropped++
		return
	}
	ch <- resp // buffered: never blocks the reader
}

// expect registers a call's id before its request is written.
func (sc *sidekickConn) expect(id string) chan sidekick.Response {
	ch := make(chan sidekick.Response, 1)
	sc.mu.Lock()
	sc.waiting[id] = ch
	sc.mu.Unlock()
	return ch
}

// abandon stops waiting for id; its answer, when it comes, is dropped.
func (sc *sidekickConn) abandon(id string) {
	sc.mu.Lock()
	delete(sc.waiting, id)
	sc.mu.Unlock()
}

// Dropped counts the late answers read and thrown away.
func (sc *sidekickConn) Dropped() int {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return sc.dropped
}

func (sc *sidekickConn) dead() bool {
	select {
	case <-sc.done:
		return true
	default:
		return false
	}
}

func (sc *sidekickConn) close() error { return sc.conn.Close() }

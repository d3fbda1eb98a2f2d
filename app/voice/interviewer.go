package voice

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"fixthis/app/errcode"

	"github.com/gorilla/websocket"
)

// Timing of the upstream connection.
const (
	handshakeTimeout = 10 * time.Second // dial, session.created, session.updated
	writeTimeout     = 5 * time.Second
	closeTimeout     = 300 * time.Millisecond // Stop's close frame; the socket goes anyway
	maxConnectsPer   = time.Minute
	maxConnects      = 5 // connects per minute, the first one included
	backoffFirst     = 500 * time.Millisecond
	backoffMax       = 10 * time.Second
)

// Interviewer is one running voice session: one Realtime connection at a time,
// replaced with backoff when it drops.
type Interviewer struct {
	cfg    Config
	key    string // never logged, never in a message
	brief  string
	sink   Sink
	screen Screen
	units  Units
	log    *slog.Logger
	dialer *websocket.Dialer
	ended  func(*Interviewer) // tells the manager the session is over

	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}

	mu       sync.Mutex
	doc      Session
	ws       *websocket.Conn
	conn     int // connections made so far
	connects []time.Time
	touched  time.Time // the console's last request
	// responding: a response is active upstream; [PAGE] notes wait for its end.
	responding bool
	held       [][]byte // conversation.item.create events waiting for response.done
	createNext bool     // send response.create after the active response ends
	anchors    anchorBook
	looks      lookState
	partial    map[string]string // item id → transcript so far
	recent     []string          // the last final transcript lines, for [RECONNECT]
	calls      []ToolCall        // every tool call, in order
	unitSt     unitState
	stats      Stats

	unitq     chan serverEvent // unit tool calls, handled in order by unitCalls
	silence   time.Duration    // smart mode's silence checkpoint (0: silenceCheckpoint)
	handoffMu sync.Mutex       // one hand-off at a time

	wmu sync.Mutex // one writer on the socket
}

// ToolCall is a function call the interviewer made.
type ToolCall struct {
	Conn      int
	CallID    string
	Name      string
	Arguments json.RawMessage
	At        time.Time
}

// Stats counts what went up the socket, for the benchmarks and the docs.
type Stats struct {
	AudioChunks  int
	AudioBytes   int
	AudioDropped int // chunks dropped: muted or reconnecting
}

// errKeyRefused marks a 401 from upstream: no retry helps.
var errKeyRefused = errors.New("key refused")

// keyRefusedMessage is what the user is told on a 401; the key is never echoed.
const keyRefusedMessage = "OpenAI refused the key. Check it in the voice settings or OPENAI_API_KEY and try again."

func (iv *Interviewer) publishState() {
	iv.mu.Lock()
	doc := iv.doc
	iv.mu.Unlock()
	iv.sink.State(doc)
}

func (iv *Interviewer) setState(st State, code errcode.Code, msg string) {
	iv.mu.Lock()
	iv.doc.State, iv.doc.ErrorCode, iv.doc.Message = st, string(code), msg
	iv.mu.Unlock()
	iv.publishState()
}

// Doc returns the session as the console sees it.
func (iv *Interviewer) Doc() Session {
	iv.mu.Lock()
	defer iv.mu.Unlock()
	return iv.doc
}

// ID is the voice session id.
func (iv *Interviewer) ID() string { return iv.Doc().VoiceSessionID }

// start makes the first connection; on success the session runs until Stop.
func (iv *Interviewer) start() error {
	iv.setState(StateConnecting, "", "")
	ws, err := iv.connect(iv.ctx)
	if err != nil {
		code, msg := errcode.VoiceUpstream, fmt.Sprintf("could not start the interviewer at %s: %v", iv.cfg.Host(), err)
		if errors.Is(err, errKeyRefused) {
			code, msg = errcode.VoiceKeyRefused, keyRefusedMessage
		}
		iv.setState(StateFailed, code, msg)
		iv.cancel()
		close(iv.done)
		return errcode.New(code, "%s", msg)
	}
	iv.mu.Lock()
	iv.touched = time.Now()
	iv.mu.Unlock()
	iv.attach(ws)
	iv.setState(StateListening, "", "")
	go iv.unitCalls()
	go iv.run(ws)
	return nil
}

// connect dials, waits for session.created, sends session.update and waits for
// session.updated. It counts against the connect limit.
func (iv *Interviewer) connect(ctx context.Context) (*websocket.Conn, error) {
	url, err := iv.cfg.RealtimeURL()
	if err != nil {
		return nil, err
	}
	iv.mu.Lock()
	iv.connects = append(iv.connects, time.Now())
	spoken := iv.doc.SpokenReplies
	iv.mu.Unlock()
	hctx, cancel := context.WithTimeout(ctx, handshakeTimeout)
	defer cancel()
	h := http.Header{"Authorization": {"Bearer " + iv.key}}
	ws, resp, err := iv.dialer.DialContext(hctx, url, h)
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
	if err != nil {
		if resp != nil && resp.StatusCode == http.StatusUnauthorized {
			return nil, errKeyRefused
		}
		if resp != nil {
			return nil, fmt.Errorf("HTTP %d", resp.StatusCode)
		}
		return nil, scrub(err)
	}
	stop := context.AfterFunc(hctx, func() { _ = ws.SetReadDeadline(time.Now()) })
	defer stop()
	if err := expect(ws, "session.created"); err != nil {
		ws.Close()
		return nil, err
	}
	update, err := SessionUpdate(iv.cfg.Voice, iv.brief, spoken)
	if err != nil {
		ws.Close()
		return nil, err
	}
	if err := ws.WriteMessage(websocket.TextMessage, update); err != nil {
		ws.Close()
		return nil, scrub(err)
	}
	if err := expect(ws, "session.updated"); err != nil {
		ws.Close()
		return nil, err
	}
	_ = ws.SetReadDeadline(time.Time{})
	return ws, nil
}

// expect reads events until one of type typ; an error event fails the handshake.
func expect(ws *websocket.Conn, typ string) error {
	for {
		_, raw, err := ws.ReadMessage()
		if err != nil {
			return fmt.Errorf("waiting for %s: %w", typ, scrub(err))
		}
		var ev serverEvent
		if err := json.Unmarshal(raw, &ev); err != nil {
			return fmt.Errorf("waiting for %s: the server sent something that is not JSON", typ)
		}
		switch ev.Type {
		case typ:
			return nil
		case "error":
			if ev.Error != nil {
				return fmt.Errorf("the server refused the session: %s", ev.Error.Message)
			}
			return fmt.Errorf("the server refused the session")
		}
	}
}

// scrub drops anything from an error that could carry a URL's query (never the key,
// which travels in a header, but the message stays short and plain).
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

// run reads the connection until Stop, reconnecting when it drops.
func (iv *Interviewer) run(ws *websocket.Conn) {
	defer close(iv.done)
	defer iv.ended(iv)
	idle := time.NewTicker(5 * time.Second)
	defer idle.Stop()
	for {
		readErr := make(chan error, 1)
		go func() { readErr <- iv.read(ws) }()
	wait:
		for {
			select {
			case <-iv.ctx.Done():
				iv.closeSocket(ws)
				<-readErr
				iv.setState(StateStopped, "", iv.Doc().Message)
				return
			case <-idle.C:
				if limit, idle := iv.idleFor(); idle > limit {
					iv.mu.Lock()
					iv.doc.Message = "Talk stopped: the console sent nothing for " + limit.String() + "."
					iv.mu.Unlock()
					iv.cancel()
				}
			case err := <-readErr:
				iv.log.Warn("voice: interviewer connection lost", "err", err)
				break wait
			}
		}
		iv.detach()
		next, err := iv.reconnect()
		if err != nil {
			if iv.ctx.Err() != nil {
				iv.setState(StateStopped, "", iv.Doc().Message)
				return
			}
			code, msg := errcode.VoiceUpstream, err.Error()
			if errors.Is(err, errKeyRefused) {
				code, msg = errcode.VoiceKeyRefused, keyRefusedMessage
			}
			iv.setState(StateFailed, code, msg)
			iv.cancel()
			return
		}
		iv.attach(next)
		ws = next
		iv.flushQuestions()
	}
}

// An unmuted console sends audio all the time, a muted one nothing: a session whose
// console sent nothing for this long was left behind (a closed tab) and ends, so the
// project is free for the next console.
const (
	idleTimeout      = 90 * time.Second
	idleMutedTimeout = 10 * time.Minute
)

// idleFor returns the idle limit that applies and how long the console was quiet.
func (iv *Interviewer) idleFor() (limit, idle time.Duration) {
	iv.mu.Lock()
	defer iv.mu.Unlock()
	limit = idleTimeout
	if iv.doc.Muted {
		limit = idleMutedTimeout
	}
	return limit, time.Since(iv.touched)
}

// Touch notes a request from the console holding the session.
func (iv *Interviewer) Touch() {
	iv.mu.Lock()
	iv.touched = time.Now()
	iv.mu.Unlock()
}

// attach makes ws the live connection: anchor ids restart, the response state too.
func (iv *Interviewer) attach(ws *websocket.Conn) {
	iv.mu.Lock()
	iv.ws = ws
	iv.conn++
	iv.anchors.newConnection(iv.conn)
	iv.looks.newConnection()
	iv.responding, iv.held, iv.createNext = false, nil, false
	iv.partial = map[string]string{}
	iv.mu.Unlock()
}

func (iv *Interviewer) detach() {
	iv.mu.Lock()
	iv.ws = nil
	iv.mu.Unlock()
}

// reconnect replaces a lost connection with backoff, at most maxConnects a minute,
// and re-seeds it with the [RECONNECT] note.
func (iv *Interviewer) reconnect() (*websocket.Conn, error) {
	iv.setState(StateReconnecting, "", "Connection to the interviewer lost; reconnecting.")
	delay := backoffFirst
	for {
		wait := max(delay, iv.limitWait(time.Now()))
		select {
		case <-iv.ctx.Done():
			return nil, iv.ctx.Err()
		case <-time.After(wait):
		}
		ws, err := iv.connect(iv.ctx)
		if err == nil {
			iv.setState(StateListening, "", "")
			iv.writeRaw(ws, reconnectItem(iv.recentLines()))
			return ws, nil // run attaches ws, then flushes waiting questions
		}
		if errors.Is(err, errKeyRefused) || iv.ctx.Err() != nil {
			return nil, err
		}
		iv.log.Warn("voice: reconnect failed", "err", err, "retryIn", delay)
		iv.mu.Lock()
		iv.doc.Message = fmt.Sprintf("Reconnecting to the interviewer (%v).", err)
		iv.mu.Unlock()
		iv.publishState()
		delay = min(2*delay, backoffMax)
	}
}

// limitWait is how long until another connect stays within maxConnects a minute.
func (iv *Interviewer) limitWait(now time.Time) time.Duration {
	iv.mu.Lock()
	defer iv.mu.Unlock()
	var recent []time.Time
	for _, t := range iv.connects {
		if now.Sub(t) < maxConnectsPer {
			recent = append(recent, t)
		}
	}
	iv.connects = recent
	if len(recent) < maxConnects {
		return 0
	}
	return maxConnectsPer - now.Sub(recent[len(recent)-maxConnects])
}

// Stop closes the connection (within a second) and ends the session.
func (iv *Interviewer) Stop() {
	iv.cancel()
	select {
	case <-iv.done:
	case <-time.After(time.Second):
	}
}

// Done is closed when the session has ended.
func (iv *Interviewer) Done() <-chan struct{} { return iv.done }

// closeSocket says goodbye and closes. WriteControl may run beside a blocked writer,
// so a stuck audio write cannot hold Stop past closeTimeout.
func (iv *Interviewer) closeSocket(ws *websocket.Conn) {
	_ = ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(closeTimeout))
	_ = ws.Close()
}

// write sends one client event on the live connection; false when there is none or
// the write failed (the read loop then sees the connection go).
func (iv *Interviewer) write(msg []byte) bool {
	iv.mu.Lock()
	ws := iv.ws
	iv.mu.Unlock()
	if ws == nil {
		return false
	}
	return iv.writeRaw(ws, msg)
}

func (iv *Interviewer) writeRaw(ws *websocket.Conn, msg []byte) bool {
	iv.wmu.Lock()
	defer iv.wmu.Unlock()
	_ = ws.SetWriteDeadline(time.Now().Add(writeTimeout))
	if err := ws.WriteMessage(websocket.TextMessage, msg); err != nil {
		_ = ws.Close()
		return false
	}
	return true
}

// Audio forwards one chunk of microphone PCM16LE mono 24 kHz. Muted or between
// connections, the chunk is dropped.
func (iv *Interviewer) Audio(pcm []byte) {
	iv.mu.Lock()
	iv.touched = time.Now()
	ws, muted := iv.ws, iv.doc.Muted
	if ws == nil || muted {
		iv.stats.AudioDropped++
		iv.mu.Unlock()
		return
	}
	iv.stats.AudioChunks++
	iv.stats.AudioBytes += len(pcm)
	iv.mu.Unlock()
	const head, tail = `{"type":"input_audio_buffer.append","audio":"`, `"}`
	msg := make([]byte, len(head)+base64.StdEncoding.EncodedLen(len(pcm))+len(tail))
	copy(msg, head)
	base64.StdEncoding.Encode(msg[len(head):], pcm)
	copy(msg[len(msg)-len(tail):], tail)
	iv.writeRaw(ws, msg)
}

// Stats returns the audio counters.
func (iv *Interviewer) Stats() Stats {
	iv.mu.Lock()
	defer iv.mu.Unlock()
	return iv.stats
}

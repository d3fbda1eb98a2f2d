package voice

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"fixthis/app/errcode"
	"fixthis/app/voice/realtime"

	"github.com/gorilla/websocket"
)

// startWait is how long Start waits for the first connection before it answers
// with the session still connecting: an upstream that stays silent must not hold
// the console's request for the whole handshake timeout. The outcome then
// reaches the console as voice-state, and Stop cancels the connect.
const startWait = 2 * time.Second

// Interviewer is one running voice session: the interview (anchors, units, modes,
// questions, transcript) on top of a realtime.Conn, which holds the connection.
type Interviewer struct {
	host   string // the upstream's host, for messages
	sink   Sink
	screen Screen
	units  Units
	log    *slog.Logger
	ended  func(*Interviewer) // tells the manager the session is over

	ctx    context.Context
	cancel context.CancelFunc
	conn   *realtime.Conn
	// started is closed when the first connection is live or the session ended;
	// startErr is then the reason it never went live.
	started   chan struct{}
	startOnce sync.Once
	startErr  error

	mu      sync.Mutex
	doc     Session
	connN   int       // the connection anchors and frames count on
	touched time.Time // the console's last request
	// audioClock is when the audio forwarded so far will have been spoken.
	audioClock time.Time
	anchors    anchorBook
	looks      lookState
	lines      transcriptLines
	calls      callLog
	budget     callBudget
	unitSt     unitState
	stats      Stats

	unitq     chan realtime.Event // unit tool calls, handled in order by unitCalls
	silence   time.Duration       // smart mode's silence checkpoint (0: silenceCheckpoint)
	handoffMu sync.Mutex          // one hand-off at a time
}

// Stats counts what went up the socket, for the benchmarks and the docs.
type Stats struct {
	AudioChunks  int
	AudioBytes   int
	AudioDropped int // chunks dropped: muted, connecting or reconnecting
}

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

// newConn makes the session's connection, not yet connecting: the session holds
// it before anyone can reach the session. The key stays with the connection.
func (iv *Interviewer) newConn(cfg Config, key, brief string, dialer *websocket.Dialer) error {
	url, err := cfg.RealtimeURL()
	if err != nil {
		return errcode.New(errcode.VoiceUpstream, "%v", err)
	}
	iv.host = cfg.Host()
	iv.conn = realtime.New(iv.ctx, realtime.Options{
		URL: url, Key: key, Dialer: dialer, Log: iv.log,
		Setup: func() ([]byte, error) {
			iv.mu.Lock()
			spoken := iv.doc.SpokenReplies
			iv.mu.Unlock()
			return SessionUpdate(cfg.Voice, brief, spoken)
		},
	}, upstream{iv})
	return nil
}

// start connects and waits up to wait for the connection to go live. An upstream
// that refuses within that time is the error; one still connecting after it leaves
// the session connecting, as Doc says.
func (iv *Interviewer) start(wait time.Duration) error {
	iv.conn.Start()
	go iv.unitCalls()
	go iv.watchIdle()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-iv.started:
		return iv.startErr
	case <-timer.C:
		return nil
	}
}

// upstream is how the connection reports to its interviewer.
type upstream struct{ iv *Interviewer }

// Opened restarts what counts per connection: anchor and frame ids, the live
// transcript lines. A replacement connection is re-seeded with [RECONNECT].
func (u upstream) Opened(n int, replaced bool) [][]byte {
	iv := u.iv
	iv.mu.Lock()
	iv.connN = n
	iv.anchors.newConnection(n)
	iv.looks.newConnection()
	iv.lines.newConnection()
	recent := append([]string(nil), iv.lines.recent...)
	iv.mu.Unlock()
	if !replaced {
		return nil
	}
	return [][]byte{reconnectItem(recent)}
}

func (u upstream) Event(ev realtime.Event) { u.iv.handle(ev) }

func (u upstream) Status(s realtime.Status) {
	iv := u.iv
	switch s.Phase {
	case realtime.Connecting:
		iv.setState(StateConnecting, "", "")
	case realtime.Live:
		iv.setState(StateListening, "", "")
		iv.startOnce.Do(func() { close(iv.started) })
		iv.flushQuestions()
	case realtime.Reconnecting:
		if s.Err == nil {
			iv.setState(StateReconnecting, "", "Connection to the interviewer lost; reconnecting.")
			return
		}
		iv.mu.Lock()
		iv.doc.Message = fmt.Sprintf("Reconnecting to the interviewer (%v).", s.Err)
		iv.mu.Unlock()
		iv.publishState()
	case realtime.Failed:
		iv.mu.Lock()
		code, msg := errcode.VoiceUpstream, s.Err.Error()
		if iv.connN == 0 {
			msg = fmt.Sprintf("could not start the interviewer at %s: %v", iv.host, s.Err)
		}
		iv.mu.Unlock()
		if errors.Is(s.Err, realtime.ErrKeyRefused) {
			code, msg = errcode.VoiceKeyRefused, keyRefusedMessage
		}
		iv.setState(StateFailed, code, msg)
		iv.cancel()
		iv.finish(errcode.New(code, "%s", msg))
	case realtime.Closed:
		iv.setState(StateStopped, "", iv.Doc().Message)
		iv.finish(errcode.New(errcode.VoiceNotFound, "Talk was stopped before the interviewer answered"))
	}
}

// finish tells the manager the session is over and a waiting Start why.
func (iv *Interviewer) finish(startErr error) {
	iv.ended(iv)
	iv.startOnce.Do(func() {
		iv.startErr = startErr
		close(iv.started)
	})
}

// An unmuted console sends audio all the time, a muted one nothing: a session whose
// console sent nothing for this long was left behind (a closed tab) and ends, so the
// project is free for the next console.
const (
	idleTimeout      = 90 * time.Second
	idleMutedTimeout = 10 * time.Minute
)

// watchIdle ends the session once its console went quiet for too long.
func (iv *Interviewer) watchIdle() {
	tick := time.NewTicker(5 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-iv.conn.Done():
			return
		case <-tick.C:
			if limit, idle := iv.idleFor(); idle > limit {
				iv.mu.Lock()
				iv.doc.Message = "Talk stopped: the console sent nothing for " + limit.String() + "."
				iv.mu.Unlock()
				iv.cancel()
			}
		}
	}
}

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

// Stop closes the connection (within a second) and ends the session, a connect
// still under way included.
func (iv *Interviewer) Stop() {
	iv.cancel()
	select {
	case <-iv.Done():
	case <-time.After(time.Second):
	}
}

// Done is closed when the session has ended.
func (iv *Interviewer) Done() <-chan struct{} { return iv.conn.Done() }

// write sends one client event on the live connection; false when there is none.
func (iv *Interviewer) write(msg []byte) bool { return iv.conn.Send(msg) }

// audioAhead is how far ahead of real time the microphone's audio may run. The
// console never runs more than its 2 s backlog ahead, and tests speak turns
// faster than real time; a body of minutes of audio is paced to the speed it
// would have been spoken at.
const audioAhead = time.Minute

// Audio forwards one chunk of microphone PCM16LE mono 24 kHz. Muted or between
// connections, the chunk is dropped. Audio running more than audioAhead ahead
// of real time waits (until Stop) before it goes.
func (iv *Interviewer) Audio(pcm []byte) {
	now := time.Now()
	iv.mu.Lock()
	iv.touched = now
	if iv.doc.Muted || iv.conn.Number() == 0 {
		iv.stats.AudioDropped++
		iv.mu.Unlock()
		return
	}
	iv.stats.AudioChunks++
	iv.stats.AudioBytes += len(pcm)
	if iv.audioClock.Before(now) {
		iv.audioClock = now
	}
	iv.audioClock = iv.audioClock.Add(time.Duration(len(pcm)/2) * time.Second / SampleRate)
	wait := iv.audioClock.Sub(now) - audioAhead
	iv.mu.Unlock()
	if wait > 0 {
		select {
		case <-time.After(wait):
		case <-iv.ctx.Done():
			return
		}
	}
	const head, tail = `{"type":"input_audio_buffer.append","audio":"`, `"}`
	msg := make([]byte, len(head)+base64.StdEncoding.EncodedLen(len(pcm))+len(tail))
	copy(msg, head)
	base64.StdEncoding.Encode(msg[len(head):], pcm)
	copy(msg[len(msg)-len(tail):], tail)
	iv.conn.Send(msg)
}

// Stats returns the audio counters.
func (iv *Interviewer) Stats() Stats {
	iv.mu.Lock()
	defer iv.mu.Unlock()
	return iv.stats
}

// systemItem is a conversation.item.create of a system note.
func systemItem(text string) []byte {
	msg, _ := json.Marshal(map[string]any{"type": "conversation.item.create", "item": map[string]any{
		"type": "message", "role": "system",
		"content": []any{map[string]any{"type": "input_text", "text": text}},
	}})
	return msg
}

// Package realtimefake is a stand-in for the OpenAI Realtime WebSocket API, for tests
// and local runs without a key. It speaks the real event names and JSON shapes, finds
// speech by energy in the PCM16 24 kHz it is sent, answers each detected turn from a
// script (transcript, tool calls, reply text and a generated tone as reply audio), and
// reports what it received (GET /_fake/received) and heard (GET /_fake/speech).
package realtimefake

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// Config sets up a fake server.
type Config struct {
	// Key is the API key the server accepts; empty accepts any non-empty bearer.
	Key    string
	Script Script
	// ThresholdDBFS is the frame level above which audio counts as voiced
	// (default -40 dBFS).
	ThresholdDBFS float64
	// Silent accepts the socket and then sends nothing, not even session.created:
	// an upstream that hangs mid-handshake.
	Silent bool
}

// Server is the fake. Mount Handler on an httptest.Server, or run the command.
type Server struct {
	cfg      Config
	start    time.Time
	upgrader websocket.Upgrader

	mu       sync.Mutex
	received []Received
	speech   []SpeechSpan
	conns    map[int]*conn
	nextConn int
	turn     int // next script turn, shared by all connections
	notes    int // script notes answered so far
	connects []time.Time

	sent sentLog
}

// Received is one client event as the fake got it. Audio is summarised, never kept:
// Event holds the event with input_audio_buffer.append's audio replaced by its size.
type Received struct {
	Conn  int             `json:"conn"`
	At    time.Time       `json:"at"`
	AtMs  float64         `json:"atMs"` // since the server started
	Type  string          `json:"type"`
	Event json.RawMessage `json:"event"`
	Audio *AudioSummary   `json:"audio,omitempty"`
}

// AudioSummary describes one appended chunk.
type AudioSummary struct {
	Bytes   int     `json:"bytes"`
	Ms      float64 `json:"ms"`
	RMS     float64 `json:"rms"`
	AudioMs int     `json:"audioMs"` // audio time at the end of the chunk
}

// SpeechSpan is a detected stretch of speech on one connection.
type SpeechSpan struct {
	Conn int `json:"conn"`
	Span
	Open bool `json:"open,omitempty"` // still speaking
}

// New returns a fake server.
func New(cfg Config) *Server {
	if cfg.ThresholdDBFS == 0 {
		cfg.ThresholdDBFS = -40
	}
	return &Server{
		cfg:      cfg,
		start:    time.Now(),
		conns:    map[int]*conn{},
		upgrader: websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }},
	}
}

// Handler serves /v1/realtime and the /_fake/ inspection routes.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/realtime", s.serveRealtime)
	mux.HandleFunc("GET /_fake/received", s.getReceived)
	mux.HandleFunc("GET /_fake/speech", s.getSpeech)
	mux.HandleFunc("GET /_fake/sent", s.getSent)
	mux.HandleFunc("POST /_fake/drop", s.postDrop)
	mux.HandleFunc("POST /_fake/error", s.postError)
	mux.HandleFunc("POST /_fake/reset", s.postReset)
	return mux
}

// openAIError writes an HTTP error in the shape the OpenAI API uses.
func openAIError(w http.ResponseWriter, status int, typ, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
		"message": msg, "type": typ, "code": code, "param": nil,
	}})
}

func (s *Server) serveRealtime(w http.ResponseWriter, r *http.Request) {
	auth := r.Header.Get("Authorization")
	key, ok := strings.CutPrefix(auth, "Bearer ")
	if !ok || key == "" {
		openAIError(w, http.StatusUnauthorized, "invalid_request_error", "missing_api_key",
			"You didn't provide an API key. Provide it in the Authorization header (Bearer auth).")
		return
	}
	if s.cfg.Key != "" && key != s.cfg.Key {
		// Unlike the real API, the fake never echoes any part of the key.
		openAIError(w, http.StatusUnauthorized, "invalid_request_error", "invalid_api_key", "Incorrect API key provided.")
		return
	}
	model := r.URL.Query().Get("model")
	if model == "" {
		openAIError(w, http.StatusBadRequest, "invalid_request_error", "missing_model", "Missing required parameter: 'model'.")
		return
	}
	ws, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	s.mu.Lock()
	s.nextConn++
	id := s.nextConn
	c := newConn(s, id, ws, model)
	s.conns[id] = c
	s.connects = append(s.connects, time.Now())
	s.mu.Unlock()
	c.run()
	s.mu.Lock()
	delete(s.conns, id)
	s.mu.Unlock()
}

// record adds a client event to the received log.
func (s *Server) record(rec Received) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec.AtMs = float64(rec.At.Sub(s.start).Microseconds()) / 1000
	s.received = append(s.received, rec)
}

// speechEdge records a speech start (open span) or closes the open span.
func (s *Server) speechEdge(conn int, ev vadEvent) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ev.started {
		s.speech = append(s.speech, SpeechSpan{Conn: conn, Span: ev.span, Open: true})
		return
	}
	for i := len(s.speech) - 1; i >= 0; i-- {
		if s.speech[i].Conn == conn && s.speech[i].Open {
			s.speech[i] = SpeechSpan{Conn: conn, Span: ev.span}
			return
		}
	}
	s.speech = append(s.speech, SpeechSpan{Conn: conn, Span: ev.span})
}

// nextTurn hands out the next scripted turn (ok false once the script is used up).
func (s *Server) nextTurn() (Turn, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.turn >= len(s.cfg.Script.Turns) {
		return Turn{}, false
	}
	t := s.cfg.Script.Turns[s.turn]
	s.turn++
	return t, true
}

// noteFor returns the next unanswered script note when text starts with its prefix.
func (s *Server) noteFor(text string) (Note, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.notes >= len(s.cfg.Script.Notes) || !strings.HasPrefix(text, s.cfg.Script.Notes[s.notes].Prefix) {
		return Note{}, false
	}
	n := s.cfg.Script.Notes[s.notes]
	s.notes++
	return n, true
}

// ReceivedEvents returns a copy of the received log.
func (s *Server) ReceivedEvents() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.received...)
}

// Speech returns the detected speech spans.
func (s *Server) Speech() []SpeechSpan {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]SpeechSpan(nil), s.speech...)
}

// Connects returns when each WebSocket connection was accepted.
func (s *Server) Connects() []time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Time(nil), s.connects...)
}

// liveConns returns the connections open now.
func (s *Server) liveConns() []*conn {
	s.mu.Lock()
	defer s.mu.Unlock()
	conns := make([]*conn, 0, len(s.conns))
	for _, c := range s.conns {
		conns = append(conns, c)
	}
	return conns
}

// Drop closes every live connection without a close handshake, as a network loss would.
func (s *Server) Drop() int {
	conns := s.liveConns()
	for _, c := range conns {
		_ = c.ws.UnderlyingConn().Close()
	}
	return len(conns)
}

// SendError sends an upstream error event on every live connection.
func (s *Server) SendError(code, message string) int {
	conns := s.liveConns()
	for _, c := range conns {
		c.sendError("invalid_request_error", code, message, "")
	}
	return len(conns)
}

// SendRaw writes frame as one text message, unchanged, on every live connection:
// what a faulty or hostile server would send (an oversized event, broken UTF-8, an
// event the client never asked for). It returns the connections written to.
func (s *Server) SendRaw(frame []byte) int {
	conns := s.liveConns()
	n := 0
	for _, c := range conns {
		c.wmu.Lock()
		if c.ws.WriteMessage(websocket.TextMessage, frame) == nil {
			n++
		}
		c.wmu.Unlock()
	}
	return n
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func (s *Server) getReceived(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, map[string]any{"events": s.ReceivedEvents(), "connects": len(s.Connects())})
}

func (s *Server) getSpeech(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, map[string]any{"spans": s.Speech()})
}

func (s *Server) postDrop(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, map[string]any{"dropped": s.Drop()})
}

func (s *Server) postError(w http.ResponseWriter, r *http.Request) {
	var body struct{ Code, Message string }
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body.Message == "" {
		http.Error(w, `body must be {"code","message"}`, http.StatusBadRequest)
		return
	}
	writeJSON(w, map[string]any{"sent": s.SendError(body.Code, body.Message)})
}

// postReset forgets what was received and heard and restarts the script.
func (s *Server) postReset(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.received, s.speech, s.turn, s.notes, s.connects = nil, nil, 0, 0, nil
	s.mu.Unlock()
	s.sent.reset()
	w.WriteHeader(http.StatusNoContent)
}

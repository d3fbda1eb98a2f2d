package realtimefake

import (
	"net/http"
	"sync"
	"time"
)

// Sent is one server event as the fake wrote it: its type and when the write
// finished, plus the call for a function call's arguments (so a client's latency
// from a tool call to its effect can be measured from the moment it was sent).
type Sent struct {
	Conn      int       `json:"conn"`
	At        time.Time `json:"at"`
	AtMs      float64   `json:"atMs"` // since the server started
	Type      string    `json:"type"`
	CallID    string    `json:"callId,omitempty"`
	Name      string    `json:"name,omitempty"`
	Arguments string    `json:"arguments,omitempty"`
}

// sentLog keeps what the fake sent, apart from the received log's lock.
type sentLog struct {
	mu     sync.Mutex
	events []Sent
}

func (l *sentLog) add(start time.Time, conn int, typ string, fields map[string]any) {
	ev := Sent{Conn: conn, At: time.Now(), Type: typ}
	ev.AtMs = float64(ev.At.Sub(start).Microseconds()) / 1000
	if typ == "response.function_call_arguments.done" {
		ev.CallID, _ = fields["call_id"].(string)
		ev.Name, _ = fields["name"].(string)
		ev.Arguments, _ = fields["arguments"].(string)
	}
	l.mu.Lock()
	l.events = append(l.events, ev)
	l.mu.Unlock()
}

func (l *sentLog) reset() {
	l.mu.Lock()
	l.events = nil
	l.mu.Unlock()
}

// SentEvents returns a copy of the sent log.
func (s *Server) SentEvents() []Sent {
	s.sent.mu.Lock()
	defer s.sent.mu.Unlock()
	return append([]Sent(nil), s.sent.events...)
}

func (s *Server) getSent(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, map[string]any{"events": s.SentEvents()})
}

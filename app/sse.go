package app

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"time"
)

// getEvents streams the event bus as Server-Sent Events: a snapshot first, then every
// event with its bus id (so Last-Event-ID resumes), and keep-alive comments.
//
// WebKitGTK's handler bridge has no http.Flusher and does not cancel r.Context() when
// the page goes away, so the loop flushes only when it can and treats a failed write as
// the end of the stream.
func (a *App) getEvents(w http.ResponseWriter, r *http.Request) {
	since := uint64(0)
	if v := r.Header.Get("Last-Event-ID"); v != "" {
		since, _ = strconv.ParseUint(v, 10, 64)
	} else if v := r.URL.Query().Get("lastEventId"); v != "" {
		since, _ = strconv.ParseUint(v, 10, 64)
	}
	sub, replay, overflow := a.bus.Subscribe(since)
	defer sub.Close()
	a.watchers.Add(1)
	defer a.watchers.Add(-1)
	a.notifyWatchers()
	defer a.notifyWatchers()

	// The snapshot is computed before any header is committed, so a failure is still
	// an ordinary JSON error.
	snap, err := a.snapshot(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("Connection", "keep-alive")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	send := func(id uint64, typ string, data []byte) bool {
		var buf bytes.Buffer
		if id > 0 {
			buf.WriteString("id: " + strconv.FormatUint(id, 10) + "\n")
		}
		buf.WriteString("event: " + typ + "\n")
		for _, line := range bytes.Split(data, []byte("\n")) {
			buf.WriteString("data: ")
			buf.Write(line)
			buf.WriteByte('\n')
		}
		buf.WriteByte('\n')
		if _, err := w.Write(buf.Bytes()); err != nil {
			return false
		}
		if flusher != nil {
			flusher.Flush()
		}
		return true
	}

	snapJSON, _ := json.Marshal(snap)
	// The snapshot carries the current bus id so a reconnect resumes after it.
	if !send(a.bus.LastID(), "snapshot", snapJSON) {
		return
	}
	if overflow {
		if !send(0, "replay-overflow", []byte(`{}`)) {
			return
		}
	}
	for _, ev := range replay {
		if !send(ev.ID, ev.Type, ev.Data) {
			return
		}
	}

	keepAlive := time.NewTicker(a.keepAliveEvery)
	defer keepAlive.Stop()
	for {
		select {
		case ev, ok := <-sub.C:
			if !ok {
				// Dropped for falling behind: tell the client to resync.
				send(0, "replay-overflow", []byte(`{}`))
				return
			}
			if !send(ev.ID, ev.Type, ev.Data) {
				return
			}
		case <-keepAlive.C:
			if _, err := w.Write([]byte(": keep-alive\n\n")); err != nil {
				return
			}
			if flusher != nil {
				flusher.Flush()
			}
		case <-r.Context().Done():
			return
		case <-a.shutdown:
			return
		}
	}
}

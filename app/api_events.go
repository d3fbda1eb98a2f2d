package app

import (
	"bytes"
	"context"
	"net/http"
	"slices"
	"strconv"
	"time"

	"fixthis/app/device"
	"fixthis/app/events"
	"fixthis/app/httpapi"
	"fixthis/app/store"
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
	// An open stream is a console watching: the live preview runs while there is one.
	defer a.device.Preview.Watch()()

	// The snapshot is computed before any header is committed, so a failure is still
	// an ordinary JSON error.
	snap, err := a.snapshot(r.Context())
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("Connection", "keep-alive")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	send := func(id uint64, typ events.Type, data []byte) bool {
		var buf bytes.Buffer
		if id > 0 {
			buf.WriteString("id: " + strconv.FormatUint(id, 10) + "\n")
		}
		buf.WriteString("event: " + string(typ) + "\n")
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

	// The snapshot carries the current bus id so a reconnect resumes after it.
	if !send(a.bus.LastID(), SnapshotEvent.Type(), SnapshotEvent.Marshal(snap)) {
		return
	}
	if overflow {
		if !send(0, ReplayOverflowEvent.Type(), ReplayOverflowEvent.Marshal(events.Empty{})) {
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
	a.consoleSeen()
	for {
		select {
		case ev, ok := <-sub.C:
			if !ok {
				// Dropped for falling behind: tell the client to resync.
				send(0, ReplayOverflowEvent.Type(), ReplayOverflowEvent.Marshal(events.Empty{}))
				return
			}
			if !send(ev.ID, ev.Type, ev.Data) {
				return
			}
		case <-keepAlive.C:
			if _, err := w.Write([]byte(": keep-alive\n\n")); err != nil {
				return
			}
			a.consoleSeen()
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

// Snapshot is the first event of every stream: everything the console needs to render.
type Snapshot struct {
	Sessions       []store.SessionSummary `json:"sessions"`
	Agent          *store.Presence        `json:"agent"`
	Version        string                 `json:"version"`
	Mode           Mode                   `json:"mode"`
	Devices        []device.View          `json:"devices"`
	SelectedSerial string                 `json:"selectedSerial"`
	ADBServerUp    bool                   `json:"adbServerUp"`
	ADBServerError string                 `json:"adbServerError"`
	// DeviceNotices and OfferSerial are device.List's Notices and OfferSerial.
	DeviceNotices []string          `json:"notices,omitempty"`
	OfferSerial   string            `json:"offerSerial,omitempty"`
	Preview       device.PreviewDoc `json:"preview"`
}

func (a *App) snapshot(ctx context.Context) (Snapshot, error) {
	dev := a.device.Registry.List()
	sessions := []store.SessionSummary{}
	if a.store != nil {
		list, err := a.store.ListSessions(ctx)
		if err != nil {
			return Snapshot{}, err
		}
		sessions = append(sessions, list...)
	}
	var agent *store.Presence
	if len(sessions) > 0 {
		latest := slices.MaxFunc(sessions, func(x, y store.SessionSummary) int { return x.UpdatedAt.Compare(y.UpdatedAt) })
		agent, _ = a.store.GetPresence(ctx, latest.SessionID)
	}
	return Snapshot{
		Sessions:       sessions,
		Agent:          agent,
		Version:        a.version,
		Mode:           a.mode,
		Devices:        dev.Devices,
		SelectedSerial: dev.SelectedSerial,
		ADBServerUp:    dev.ServerUp,
		ADBServerError: dev.ServerError,
		DeviceNotices:  dev.Notices,
		OfferSerial:    dev.OfferSerial,
		Preview:        a.device.Preview.Latest(),
	}, nil
}

// consoleSeen records that a console has a stream open, so a waiting agent in
// any process can tell a console that is gone for good (console_gone).
func (a *App) consoleSeen() {
	if a.store == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := a.store.TouchConsole(ctx); err != nil {
		a.log.Warn("record the console", "err", err)
	}
}

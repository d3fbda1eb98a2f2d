package app

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"fixthis/app/httpapi"
	"fixthis/capture/video"
)

// Message kinds of GET /api/preview/stream. Every message is a 4-byte big-endian
// length (of what follows it), a kind byte, then the body.
const (
	streamConfig      = 1 // body: VideoConfig as JSON
	streamAccessUnit  = 2 // body: flags (1 = key frame), arrival as 8-byte unix µs, Annex-B picture
	streamKeepAlive   = 3 // no body: sent each second without pictures
	streamEnded       = 4 // body: why the stream ends (UTF-8), when the phone went away
	streamFlagKeyUnit = 1
)

// getPreviewStream sends a phone's screen (?serial=, else the selected one) as H.264 in one streaming
// response: a config message, the pictures since the last key frame, then each new
// picture as it arrives. It is a plain HTTP body read with fetch(), so it works in a
// browser and through the Wails AssetServer, whose WebKitGTK bridge has no
// http.Flusher (writes are flushed when possible, and a failed write ends the stream).
//
// A device that cannot stream, or --preview jpeg, answers 409 video_unavailable with
// the reason; the console then shows raw frames. A fifth phone while four are live
// answers 409 stage_limit. The stream of the selection ends when the selection
// changes; a named phone's stream ends when that phone is gone, with a last message
// saying so. Either ends when the viewer fell behind; the console reopens it.
func (h previewRoutes) getPreviewStream(w http.ResponseWriter, r *http.Request) {
	named := r.URL.Query().Get("serial")
	dev, err := h.device.Registry.Lookup(named)
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	stream, cfg, release, err := h.device.Video.Attach(dev)
	if err != nil {
		if sel, serr := h.device.Registry.Selected(); serr == nil && sel.Serial == dev.Serial {
			h.device.Preview.NoteVideo(dev.Serial) // the selected phone's status says why
		}
		h.log.Info("live video refused", "serial", dev.Serial, "why", err)
		httpapi.WriteError(w, err)
		return
	}
	defer release()
	replay, live, cancel := stream.Subscribe()
	defer cancel()
	sent := 0
	h.log.Info("live video: a console is watching", "serial", cfg.Serial, "size", fmt.Sprintf("%dx%d", cfg.Width, cfg.Height))
	defer func() { h.log.Info("live video: the console left", "serial", cfg.Serial, "pictures", sent) }()

	hdr := w.Header()
	hdr.Set("Content-Type", "application/vnd.fixthis.h264-stream")
	hdr.Set("Cache-Control", "no-store")
	hdr.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	send := func(kind byte, parts ...[]byte) bool {
		n := 1
		for _, p := range parts {
			n += len(p)
		}
		var head [5]byte
		binary.BigEndian.PutUint32(head[:4], uint32(n))
		head[4] = kind
		if _, err := w.Write(head[:]); err != nil {
			return false
		}
		for _, p := range parts {
			if _, err := w.Write(p); err != nil {
				return false
			}
		}
		if flusher != nil {
			flusher.Flush()
		}
		return true
	}
	sendAU := func(au video.AccessUnit) bool {
		var meta [9]byte
		if au.Key {
			meta[0] = streamFlagKeyUnit
		}
		binary.BigEndian.PutUint64(meta[1:], uint64(au.Arrived.UnixMicro()))
		sent++
		return send(streamAccessUnit, meta[:], au.Data)
	}
	body, _ := json.Marshal(cfg)
	if !send(streamConfig, body) {
		return
	}
	for _, au := range replay {
		if !sendAU(au) {
			return
		}
	}
	devices := h.device.Registry.Changes()
	// gone ends a named phone's stream with the reason when that phone left.
	gone := func(err error) bool {
		if err != nil {
			h.log.Info("live video: the phone went away", "serial", cfg.Serial, "why", err)
			send(streamEnded, []byte(err.Error()))
		}
		return err != nil
	}
	lookup := func() error {
		if named == "" {
			return nil
		}
		_, err := h.device.Registry.Lookup(named)
		return err
	}
	// The WebKitGTK bridge does not cancel r.Context() when the page drops the
	// response; only a failed write tells. A keep-alive each quiet second finds a
	// viewer that left, so the raw-frame loop takes over within a second.
	keepAlive := time.NewTicker(time.Second)
	defer keepAlive.Stop()
	lastSent := time.Now()
	for {
		select {
		case au, ok := <-live:
			if !ok {
				if named != "" {
					gone(h.awaitGone(r, named, stream))
				}
				return
			}
			if !sendAU(au) {
				return
			}
			lastSent = time.Now()
		case <-keepAlive.C:
			if sel, err := h.device.Registry.Selected(); err == nil && sel.Serial == cfg.Serial &&
				h.device.Preview.Landscape() != (cfg.DisplayWidth > cfg.DisplayHeight) {
				// The phone turned: end here, and the console reopens a stream coded
				// the other way round.
				return
			}
			if time.Since(lastSent) >= time.Second {
				if !send(streamKeepAlive) {
					return
				}
				lastSent = time.Now()
			}
		case <-devices:
			devices = h.device.Registry.Changes()
			if gone(lookup()) {
				return
			}
			if now, err := h.device.Registry.Selected(); named == "" && (err != nil || now.Serial != cfg.Serial) {
				return
			}
		case <-r.Context().Done():
			return
		case <-h.shutdown:
			return
		}
	}
}

// phoneGoneGrace bounds how long a named phone's ended video waits for the device
// tracker: the screenrecord shell dies with the link, often before adb's
// track-devices reports the phone gone.
const phoneGoneGrace = 3 * time.Second

// awaitGone says why named's stream ended when its phone left: the registry's
// error once it agrees the phone is gone, or nil when the phone is still there (the
// viewer fell behind, or the video failed on its own; the console reopens either).
func (h previewRoutes) awaitGone(r *http.Request, named string, stream *video.Stream) error {
	select {
	case <-stream.Done():
	case <-time.After(100 * time.Millisecond):
		return nil // the stream goes on: this viewer was dropped for falling behind
	}
	deadline := time.NewTimer(phoneGoneGrace)
	defer deadline.Stop()
	for {
		changed := h.device.Registry.Changes()
		if _, err := h.device.Registry.Lookup(named); err != nil {
			return err
		}
		select {
		case <-changed:
		case <-deadline.C:
			return nil
		case <-r.Context().Done():
			return nil
		case <-h.shutdown:
			return nil
		}
	}
}

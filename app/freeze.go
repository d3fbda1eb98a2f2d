package app

import (
	"bytes"
	"context"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"fixthis/capture"
)

// frozenFrame is a full-resolution capture made when the console enters Annotate: the
// evidence a batch save turns into a persisted screen.
type frozenFrame struct {
	ID         string
	Serial     string
	PNG        []byte
	Snapshot   *capture.Snapshot
	CapturedAt time.Time
}

// frozenFrames keeps the last few freezes so a save can still find its frame.
type frozenFrames struct {
	seq   atomic.Uint64
	mu    sync.Mutex
	list  []*frozenFrame
	limit int
}

func newFrozenFrames(limit int) *frozenFrames { return &frozenFrames{limit: limit} }

func (f *frozenFrames) add(fr *frozenFrame) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.list = append(f.list, fr)
	if len(f.list) > f.limit {
		f.list = f.list[len(f.list)-f.limit:]
	}
}

func (f *frozenFrames) get(id string) *frozenFrame {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, fr := range f.list {
		if fr.ID == id {
			return fr
		}
	}
	return nil
}

type freezeRequest struct {
	Serial    string `json:"serial"`
	SessionID string `json:"sessionId"`
}

// postPreviewFreeze captures the full-resolution frame and the UI tree together (the
// tree is the slow part on phones, so both start at once) and pauses the live loop.
func (a *App) postPreviewFreeze(w http.ResponseWriter, r *http.Request) {
	var req freezeRequest
	if r.ContentLength != 0 {
		if err := decodeJSON(r, &req); err != nil {
			writeError(w, err)
			return
		}
	}
	dev, err := a.devices.Lookup(req.Serial)
	if err != nil {
		writeError(w, err)
		return
	}
	a.preview.setFrozen(true)
	ctx, cancel := context.WithTimeout(r.Context(), 20*time.Second)
	defer cancel()
	fr, err := a.freeze(ctx, dev.Serial)
	if err != nil {
		a.preview.setFrozen(false)
		writeError(w, errorf(http.StatusBadGateway, "capture_failed", "DEVICE_NOT_AVAILABLE: could not capture %s: %v", dev.Serial, err))
		return
	}
	writeJSON(w, http.StatusOK, freezePayload(fr))
}

func (a *App) freeze(ctx context.Context, serial string) (*frozenFrame, error) {
	snap, err := a.captureWithSidekick(ctx, serial)
	if err != nil {
		return nil, err
	}
	var png bytes.Buffer
	if err := capture.EncodeEvidencePNG(&png, snap.Frame); err != nil {
		return nil, err
	}
	fr := &frozenFrame{
		ID:         "f" + strconv.FormatUint(a.frozen.seq.Add(1), 10),
		Serial:     serial,
		PNG:        png.Bytes(),
		Snapshot:   snap,
		CapturedAt: time.Now(),
	}
	a.frozen.add(fr)
	return fr, nil
}

func freezePayload(fr *frozenFrame) map[string]any {
	s := fr.Snapshot
	nodes := s.Nodes
	if nodes == nil {
		nodes = []capture.Node{}
	}
	return map[string]any{
		"previewId": fr.ID,
		"serial":    fr.Serial,
		"imageUrl":  "/api/preview/" + fr.ID + "/image",
		"screen": map[string]any{
			"fingerprint": s.Fingerprint.String(),
			"fingerprints": map[string]string{
				"structural": s.Fingerprint.Structural,
				"perceptual": s.Fingerprint.Perceptual,
				"structure":  s.Fingerprint.Structure,
			},
			"width":       s.Width,
			"height":      s.Height,
			"package":     s.State.Package,
			"activity":    s.State.Activity,
			"orientation": s.State.Orientation,
			"density":     s.State.Density,
		},
		"nodes":      nodes,
		"treeSource": s.TreeSource,
		"timingsMs": map[string]int64{
			"frame": s.Timings.Frame.Milliseconds(),
			"tree":  s.Timings.Tree.Milliseconds(),
			"total": s.Timings.Total.Milliseconds(),
		},
	}
}

// postPreviewResume leaves the frozen state; the live loop announces the next frame.
func (a *App) postPreviewResume(w http.ResponseWriter, r *http.Request) {
	a.preview.setFrozen(false)
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

type tapRequest struct {
	X      *int   `json:"x"`
	Y      *int   `json:"y"`
	Serial string `json:"serial"`
}

// postPreviewTap forwards a Select-mode click to the device as `input tap X Y`.
func (a *App) postPreviewTap(w http.ResponseWriter, r *http.Request) {
	var req tapRequest
	if err := decodeJSON(r, &req); err != nil {
		writeError(w, err)
		return
	}
	if req.X == nil || req.Y == nil || *req.X < 0 || *req.Y < 0 {
		writeError(w, errorf(http.StatusUnprocessableEntity, "invalid_input", "INVALID_INPUT: x and y are required device coordinates"))
		return
	}
	dev, err := a.devices.Lookup(req.Serial)
	if err != nil {
		writeError(w, err)
		return
	}
	if dev.Screen != nil && (*req.X >= dev.Screen.Width || *req.Y >= dev.Screen.Height) {
		writeError(w, errorf(http.StatusUnprocessableEntity, "invalid_input", "INVALID_INPUT: (%d,%d) is outside the %dx%d screen", *req.X, *req.Y, dev.Screen.Width, dev.Screen.Height))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
	defer cancel()
	res, err := a.adb.Shell(ctx, dev.Serial, "input tap "+strconv.Itoa(*req.X)+" "+strconv.Itoa(*req.Y))
	if err == nil && res.ExitCode != 0 {
		err = errorf(http.StatusBadGateway, "tap_failed", "input tap exited %d: %s", res.ExitCode, bytes.TrimSpace(res.Stderr))
	}
	if err != nil {
		writeError(w, errorf(http.StatusBadGateway, "tap_failed", "DEVICE_NOT_AVAILABLE: tap on %s failed: %v", dev.Serial, err))
		return
	}
	a.preview.poke()
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

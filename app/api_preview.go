package app

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"fixthis/app/device"
	"fixthis/app/errcode"
	"fixthis/app/feedback"
	"fixthis/app/httpapi"
	"fixthis/app/store"
)

// getPreview is the fallback path for a console whose event stream is down: the
// newest live frame's document. It counts as watching, so the loop keeps capturing.
// previewRoutes serve the live preview, freezes, taps, the video and clips.
type previewRoutes struct {
	device   *device.Service
	store    *store.Store
	feedback *feedback.Service
	log      *slog.Logger
	// shutdown ends the video stream when FixThis quits.
	shutdown <-chan struct{}
}

func (h previewRoutes) getPreview(w http.ResponseWriter, r *http.Request) {
	h.device.Preview.NotePoll()
	httpapi.WriteJSON(w, http.StatusOK, h.device.Preview.Latest())
}

// getPreviewImage serves a kept live frame (JPEG, by previewId) or frozen frame (PNG,
// by frozenId).
func (h previewRoutes) getPreviewImage(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	data, contentType, ok := h.device.Image(id)
	if !ok {
		httpapi.WriteError(w, errcode.New(errcode.PreviewNotFound, "preview %s is gone; live frames are kept briefly", errcode.Quote(id)))
		return
	}
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Cache-Control", "private, max-age=3600, immutable")
	_, _ = w.Write(data)
}

// StageHeight is the body and answer of POST /api/preview/stage.
type StageHeight struct {
	Height int `json:"height"` // device pixels
}

// postPreviewStage records how tall the console's stage is in device pixels, so live
// frames are encoded at the size they are shown.
func (h previewRoutes) postPreviewStage(w http.ResponseWriter, r *http.Request) {
	httpapi.DecodeAnswer(w, r, httpapi.DecodeJSON, func(req StageHeight) (StageHeight, error) {
		if req.Height <= 0 {
			return StageHeight{}, httpapi.InvalidInput("height must be a positive number of device pixels")
		}
		return StageHeight{Height: h.device.Preview.SetStageHeight(req.Height)}, nil
	})
}

// postPreviewStats takes a console's report of what it paints (device.PaintReport).
func (h previewRoutes) postPreviewStats(w http.ResponseWriter, r *http.Request) {
	var req device.PaintReport
	if err := httpapi.DecodeJSON(r, &req); err != nil {
		httpapi.WriteError(w, err)
		return
	}
	if err := h.device.Preview.NotePaint(req); err != nil {
		httpapi.WriteError(w, httpapi.InvalidInput("%v", err))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// FreezeRequest is the body of POST /api/preview/freeze; both fields may be empty.
type FreezeRequest struct {
	Serial    string `json:"serial,omitempty"`
	SessionID string `json:"sessionId,omitempty"`
}

// postPreviewFreeze captures the full-resolution frame and the UI tree together (the
// tree is the slow part on phones, so both start at once) and pauses the live loop.
func (h previewRoutes) postPreviewFreeze(w http.ResponseWriter, r *http.Request) {
	httpapi.DecodeAnswer(w, r, httpapi.DecodeOptionalJSON, func(req FreezeRequest) (device.FreezeResult, error) {
		dev, err := h.device.Registry.Lookup(req.Serial)
		if err != nil {
			return device.FreezeResult{}, err
		}
		ctx, cancel := context.WithTimeout(r.Context(), 20*time.Second)
		defer cancel()
		fr, err := h.device.Freeze(ctx, dev.Serial)
		if err != nil {
			return device.FreezeResult{}, errcode.Wrap(errcode.CaptureFailed, err, "could not capture %s: %v", dev.Serial, err)
		}
		h.feedback.ScreenFrozen(fr)
		res := fr.Result()
		h.log.Info("froze the preview", "serial", dev.Serial, "frozenId", res.FrozenID, "tree", res.TreeSource,
			"frameMs", res.TimingsMs.Frame, "treeMs", res.TimingsMs.Tree, "totalMs", res.TimingsMs.Total)
		return res, nil
	})
}

// postPreviewResume leaves the frozen state; the live loop announces the next frame.
func (h previewRoutes) postPreviewResume(w http.ResponseWriter, r *http.Request) {
	h.device.Resume()
	h.log.Info("resumed the live preview")
	httpapi.WriteJSON(w, http.StatusOK, httpapi.OK{OK: true})
}

// TapRequest is the body of POST /api/preview/tap, in device pixels.
type TapRequest struct {
	X      *int   `json:"x"`
	Y      *int   `json:"y"`
	Serial string `json:"serial,omitempty"` // the selected device when empty
}

// postPreviewTap forwards a Select-mode click to the device as `input tap X Y`.
func (h previewRoutes) postPreviewTap(w http.ResponseWriter, r *http.Request) {
	httpapi.DecodeAnswer(w, r, httpapi.DecodeJSON, func(req TapRequest) (httpapi.OK, error) {
		if req.X == nil || req.Y == nil || *req.X < 0 || *req.Y < 0 {
			return httpapi.OK{}, httpapi.InvalidInput("x and y are required device coordinates")
		}
		return httpapi.OK{OK: true}, h.device.Tap(r.Context(), req.Serial, *req.X, *req.Y)
	})
}

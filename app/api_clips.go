package app

import (
	"bytes"
	"net/http"
	"time"

	"fixthis/app/errcode"
	"fixthis/app/httpapi"
	"fixthis/app/store"
	"fixthis/capture/clip"
)

// ClipRequest is the body of POST /api/preview/clip.
type ClipRequest struct {
	Serial    string `json:"serial,omitempty"` // "" or the selected device
	Seconds   int    `json:"seconds"`          // 1–30: how far back the clip reaches
	SessionID string `json:"sessionId"`
	// RecordingID ends a recording started with POST /api/preview/clip/record; the
	// clip then covers it (Seconds is ignored).
	RecordingID string `json:"recordingId,omitempty"`
}

// ClipResponse answers POST /api/preview/clip.
type ClipResponse struct {
	ClipID     string     `json:"clipId"`
	DurationMs int64      `json:"durationMs"`
	Frames     int        `json:"frames"`
	Width      int        `json:"width"`
	Height     int        `json:"height"`
	Clip       store.Clip `json:"clip"`
}

// RecordingRequest is the body of POST /api/preview/clip/record.
type RecordingRequest struct {
	Serial string `json:"serial,omitempty"`
}

// RecordingResponse answers POST /api/preview/clip/record.
type RecordingResponse struct {
	RecordingID string `json:"recordingId"`
	MaxSeconds  int    `json:"maxSeconds"`
}

// clipSerial is the device a clip request is about: the selected one, which is the
// only one whose live screen is kept.
func (h previewRoutes) clipSerial(serial string) (string, error) {
	dev, err := h.device.Registry.Selected()
	if err != nil {
		return "", err
	}
	if serial != "" && serial != dev.Serial {
		return "", errcode.New(errcode.ClipUnavailable, "only the selected device's live screen is kept; %s is not selected (%s is)",
			errcode.Quote(serial), dev.Serial)
	}
	return dev.Serial, nil
}

// postPreviewClipRecord starts a recording (the console's long press): the live
// screen is kept from now until POST /api/preview/clip ends it, up to 30 s.
func (h previewRoutes) postPreviewClipRecord(w http.ResponseWriter, r *http.Request) {
	httpapi.DecodeAnswer(w, r, httpapi.DecodeOptionalJSON, func(req RecordingRequest) (RecordingResponse, error) {
		serial, err := h.clipSerial(req.Serial)
		if err != nil {
			return RecordingResponse{}, err
		}
		return RecordingResponse{RecordingID: h.device.StartRecording(serial), MaxSeconds: clip.MaxSeconds}, nil
	})
}

// postPreviewClip cuts the last seconds of the selected device's live screen into a
// clip of the session: an H.264 MP4, a frame strip and a timeline.
func (h previewRoutes) postPreviewClip(w http.ResponseWriter, r *http.Request) {
	httpapi.DecodeAnswer(w, r, httpapi.DecodeJSON, func(req ClipRequest) (ClipResponse, error) {
		serial, err := h.clipSerial(req.Serial)
		if err != nil {
			return ClipResponse{}, err
		}
		if req.RecordingID == "" && (req.Seconds < clip.MinSeconds || req.Seconds > clip.MaxSeconds) {
			return ClipResponse{}, errcode.New(errcode.OutOfRange, "seconds must be %d–%d, got %d", clip.MinSeconds, clip.MaxSeconds, req.Seconds)
		}
		saved, err := h.feedback.CutClip(r.Context(), req.SessionID, serial, req.RecordingID, time.Duration(req.Seconds)*time.Second)
		if err != nil {
			return ClipResponse{}, err
		}
		return ClipResponse{ClipID: saved.ClipID, DurationMs: saved.DurationMs, Frames: saved.Frames,
			Width: saved.Width, Height: saved.Height, Clip: *saved}, nil
	})
}

// getClipVideo serves a clip's MP4 (with byte ranges, for <video>).
func (h previewRoutes) getClipVideo(w http.ResponseWriter, r *http.Request) {
	h.serveClipFile(w, r, false)
}

// getClipStrip serves a clip's frame strip PNG.
func (h previewRoutes) getClipStrip(w http.ResponseWriter, r *http.Request) {
	h.serveClipFile(w, r, true)
}

func (h previewRoutes) serveClipFile(w http.ResponseWriter, r *http.Request, strip bool) {
	c, err := h.store.GetClip(r.Context(), r.URL.Query().Get("sessionId"), r.PathValue("id"))
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	key, typ := c.VideoArtifact, "video/mp4"
	if strip {
		key, typ = c.StripArtifact, "image/png"
		if key == "" {
			httpapi.WriteError(w, errcode.New(errcode.ClipNotFound, "clip %s has no frame strip", c.ClipID))
			return
		}
	}
	data, err := h.store.ReadArtifact(r.Context(), key)
	if err != nil {
		httpapi.WriteError(w, errcode.Wrap(errcode.ClipNotFound, err, "the clip's file is missing from .fixthis/artifacts"))
		return
	}
	w.Header().Set("Content-Type", typ)
	w.Header().Set("Cache-Control", "private, max-age=31536000, immutable")
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(data))
}

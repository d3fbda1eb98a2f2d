// Package talk serves the console's Talk routes (/api/voice…): the key, starting and
// stopping a voice session, its microphone audio and the anchors the user points at.
// The interviewer is app/voice's; anchors resolve through the feedback core's voice
// port.
package talk

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"slices"
	"strings"

	"fixthis/app/device"
	"fixthis/app/errcode"
	"fixthis/app/feedback"
	"fixthis/app/httpapi"
	"fixthis/app/store"
	"fixthis/app/voice"
	"fixthis/capture"
)

// Audio chunk limits of POST /api/voice/sessions/{id}/audio: PCM16 mono 24 kHz.
const (
	maxAudioChunk = voice.SampleRate * 2 // 1 s
	streamFrame   = voice.SampleRate / 5 // 100 ms of a streamed body, in bytes
)

// Routes serve Talk: the key, the voice session, its audio and anchors.
type Routes struct {
	Voice  *voice.Manager
	Store  *store.Store
	Device *device.Service
	Port   *feedback.VoiceUnits
	// Console names this console in a second console's 409 when the start names
	// none ("the desktop window", "a browser console").
	Console string
}

// GetVoice says whether a key is set, where from, and the running session.
func (h Routes) GetVoice(w http.ResponseWriter, r *http.Request) {
	httpapi.WriteJSON(w, http.StatusOK, h.Voice.Status())
}

type voiceKeyRequest struct {
	Key string `json:"key"`
}

// PutVoiceKey stores the user's key in the OS keychain. The key is never answered.
func (h Routes) PutVoiceKey(w http.ResponseWriter, r *http.Request) {
	var req voiceKeyRequest
	if err := httpapi.DecodeJSON(r, &req); err != nil {
		httpapi.WriteError(w, err)
		return
	}
	if err := h.Voice.SetKey(strings.TrimSpace(req.Key)); err != nil {
		httpapi.WriteError(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h Routes) DeleteVoiceKey(w http.ResponseWriter, r *http.Request) {
	if err := h.Voice.DeleteKey(); err != nil {
		httpapi.WriteError(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// VoiceStartRequest is the body of POST /api/voice/sessions.
type VoiceStartRequest struct {
	SessionID     string `json:"sessionId"`
	Serial        string `json:"serial,omitempty"`
	SpokenReplies *bool  `json:"spokenReplies,omitempty"`
	// Mode is when units are handed off: instant, smart (default) or collect.
	Mode voice.Mode `json:"mode,omitempty"`
	// Holder names the console for a second console's 409 ("the desktop window").
	Holder string `json:"holder,omitempty"`
}

// PostVoiceSessions starts talking: it connects the interviewer before answering.
func (h Routes) PostVoiceSessions(w http.ResponseWriter, r *http.Request) {
	var req VoiceStartRequest
	if err := httpapi.DecodeJSON(r, &req); err != nil {
		httpapi.WriteError(w, err)
		return
	}
	if req.SessionID == "" {
		httpapi.WriteError(w, httpapi.InvalidInput("sessionId is required"))
		return
	}
	sum, err := h.Store.GetSessionSummary(r.Context(), req.SessionID)
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	if sum.Status == store.SessionClosed {
		// Talk adds feedback; a closed session takes none (and closing one stops Talk).
		httpapi.WriteError(w, errcode.New(errcode.SessionClosed, "session %s is closed; open a session to talk about", sum.SessionID))
		return
	}
	dev, err := h.Device.Registry.Lookup(req.Serial)
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	// voice.Manager.Start refuses a holder over 80 characters or with a control
	// character; cutting it here could split a character.
	holder := strings.TrimSpace(req.Holder)
	if holder == "" {
		holder = h.Console
	}
	spoken := req.SpokenReplies == nil || *req.SpokenReplies
	iv, err := h.Voice.Start(voice.StartRequest{SessionID: req.SessionID, Serial: dev.Serial, SpokenReplies: spoken, Holder: holder, Mode: req.Mode})
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusCreated, iv.Doc())
}

// voiceSession finds the running session of the path, answering 404 itself.
func (h Routes) voiceSession(w http.ResponseWriter, r *http.Request) (*voice.Interviewer, bool) {
	iv, err := h.Voice.Get(r.PathValue("voiceSessionId"))
	if err != nil {
		httpapi.WriteError(w, err)
		return nil, false
	}
	return iv, true
}

// PostVoiceAudio forwards microphone audio: raw PCM16LE mono 24 kHz, 100–250 ms a
// request. A body without a length (a streamed upload) is forwarded 100 ms at a time
// until it ends.
func (h Routes) PostVoiceAudio(w http.ResponseWriter, r *http.Request) {
	iv, ok := h.voiceSession(w, r)
	if !ok {
		return
	}
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct != "application/octet-stream" {
		httpapi.WriteError(w, httpapi.InvalidInput("audio must be sent as application/octet-stream (PCM16LE mono 24 kHz)"))
		return
	}
	if r.ContentLength < 0 {
		h.streamVoiceAudio(w, r, iv)
		return
	}
	if r.ContentLength > maxAudioChunk {
		httpapi.WriteError(w, errcode.New(errcode.TooLarge, "an audio chunk holds at most 1 s (%d bytes); send 100–250 ms a request", maxAudioChunk))
		return
	}
	pcm, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxAudioChunk))
	if err != nil {
		httpapi.WriteError(w, errcode.New(errcode.TooLarge, "an audio chunk holds at most 1 s (%d bytes)", maxAudioChunk))
		return
	}
	if len(pcm)%2 != 0 {
		httpapi.WriteError(w, httpapi.InvalidInput("PCM16 audio has an even number of bytes; got %d", len(pcm)))
		return
	}
	if len(pcm) > 0 {
		iv.Audio(pcm)
	}
	w.WriteHeader(http.StatusNoContent)
}

// streamVoiceAudio forwards a body without a length in streamFrame pieces. Only its
// last piece can be short; an odd one ends a body that was not PCM16, which is
// refused (its whole samples before it were already forwarded).
func (h Routes) streamVoiceAudio(w http.ResponseWriter, r *http.Request, iv *voice.Interviewer) {
	buf := make([]byte, streamFrame)
	total := 0
	for {
		n, err := io.ReadFull(r.Body, buf)
		total += n
		if n > 1 {
			iv.Audio(append([]byte(nil), buf[:n&^1]...))
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			if total%2 != 0 {
				httpapi.WriteError(w, httpapi.InvalidInput("PCM16 audio has an even number of bytes; the stream ended after %d", total))
				return
			}
			break
		}
		if err != nil {
			return // the console went away mid-stream
		}
		select {
		case <-iv.Done():
			httpapi.WriteError(w, errcode.New(errcode.VoiceNotFound, "the voice session ended"))
			return
		default:
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

// VoiceAnchorRequest is the body of POST /api/voice/sessions/{id}/anchors, in device
// pixels.
type VoiceAnchorRequest struct {
	Kind     voice.AnchorKind `json:"kind"`
	Mode     string           `json:"mode"`
	Serial   string           `json:"serial"`
	FrozenID string           `json:"frozenId"`
	NodeUID  string           `json:"nodeUid"`
	X        *int             `json:"x"`
	Y        *int             `json:"y"`
	Bounds   *capture.Bounds  `json:"bounds"`
	Note     string           `json:"note"`
}

// VoiceAnchor is the answer of POST /api/voice/sessions/{id}/anchors.
type VoiceAnchor struct {
	AnchorID string `json:"anchorId"`
	// Resolved names the node the pointing resolved to ("" when none).
	NodeUID string `json:"nodeUid,omitempty"`
}

// PostVoiceAnchors announces a click, drag or screen note to the interviewer.
func (h Routes) PostVoiceAnchors(w http.ResponseWriter, r *http.Request) {
	iv, ok := h.voiceSession(w, r)
	if !ok {
		return
	}
	httpapi.DecodeAnswer(w, r, httpapi.DecodeJSON, func(req VoiceAnchorRequest) (VoiceAnchor, error) {
		if !slices.Contains(voice.AnchorKinds, req.Kind) {
			return VoiceAnchor{}, httpapi.InvalidInput("kind must be click, area or screen")
		}
		if req.Kind == voice.AnchorArea && (req.Bounds == nil || req.Bounds.Empty()) {
			return VoiceAnchor{}, httpapi.InvalidInput("an area anchor needs non-empty bounds")
		}
		if req.Kind == voice.AnchorClick && req.NodeUID == "" && (req.X == nil || req.Y == nil) {
			return VoiceAnchor{}, httpapi.InvalidInput("a click anchor needs nodeUid or x and y")
		}
		serial := iv.Doc().Serial
		if req.Serial != "" && req.Serial != serial {
			return VoiceAnchor{}, httpapi.InvalidInput("this voice session is on %s, not %s", serial, errcode.Quote(req.Serial))
		}
		p, err := h.Port.Point(feedback.PointRequest(req), serial)
		if err != nil {
			return VoiceAnchor{}, err
		}
		anchor, err := iv.Announce(p)
		if err != nil {
			return VoiceAnchor{}, err
		}
		res := VoiceAnchor{AnchorID: anchor.ID}
		if anchor.Node != nil {
			res.NodeUID = anchor.Node.UID
		}
		return res, nil
	})
}

// VoiceUpdateRequest is the body of PUT /api/voice/sessions/{id}; nil fields stay.
type VoiceUpdateRequest struct {
	Muted         *bool       `json:"muted,omitempty"`
	SpokenReplies *bool       `json:"spokenReplies,omitempty"`
	Mode          *voice.Mode `json:"mode,omitempty"`
}

// PutVoiceSession mutes or unmutes, switches spoken replies, and tells Go the
// console is still there.
func (h Routes) PutVoiceSession(w http.ResponseWriter, r *http.Request) {
	iv, ok := h.voiceSession(w, r)
	if !ok {
		return
	}
	httpapi.DecodeAnswer(w, r, httpapi.DecodeOptionalJSON, func(req VoiceUpdateRequest) (voice.Session, error) {
		return iv.Update(req.Muted, req.SpokenReplies, req.Mode)
	})
}

// DeleteVoiceSession stops talking; the upstream socket closes within a second.
func (h Routes) DeleteVoiceSession(w http.ResponseWriter, r *http.Request) {
	iv, ok := h.voiceSession(w, r)
	if !ok {
		return
	}
	iv.Stop()
	w.WriteHeader(http.StatusNoContent)
}

package app

import (
	"net/http"

	"fixthis/app/errcode"
	"fixthis/app/httpapi"
)

// APIHandler is the console API (/api/*) without authentication: the Wails window
// mounts it directly; serve mode wraps it in the console guard.
func (a *App) APIHandler() http.Handler {
	mux := http.NewServeMux()
	// One route table: every console route is registered here.
	mux.HandleFunc("GET /api/health", a.getHealth)
	mux.HandleFunc("GET /api/events", a.getEvents)

	mux.HandleFunc("GET /api/devices", a.getDevices)
	mux.HandleFunc("POST /api/devices/refresh", a.postDevicesRefresh)
	mux.HandleFunc("POST /api/device/select", a.postDeviceSelect)
	mux.HandleFunc("POST /api/device/disconnect", a.postDeviceDisconnect)
	mux.HandleFunc("GET /api/display", a.getDisplay)
	mux.HandleFunc("PUT /api/display", a.putDisplay)
	mux.HandleFunc("POST /api/display/restore", a.postDisplayRestore)

	mux.HandleFunc("GET /api/preview", a.getPreview)
	mux.HandleFunc("GET /api/preview/{id}/image", a.getPreviewImage)
	mux.HandleFunc("POST /api/preview/freeze", a.postPreviewFreeze)
	mux.HandleFunc("POST /api/preview/resume", a.postPreviewResume)
	mux.HandleFunc("POST /api/preview/tap", a.postPreviewTap)
	mux.HandleFunc("POST /api/preview/stage", a.postPreviewStage)
	mux.HandleFunc("POST /api/preview/stats", a.postPreviewStats)
	mux.HandleFunc("GET /api/preview/stream", a.getPreviewStream)
	mux.HandleFunc("POST /api/preview/clip", a.postPreviewClip)
	mux.HandleFunc("POST /api/preview/clip/record", a.postPreviewClipRecord)
	mux.HandleFunc("GET /api/clips/{id}/video", a.getClipVideo)
	mux.HandleFunc("GET /api/clips/{id}/strip", a.getClipStrip)
	mux.HandleFunc("GET /api/sessions", a.getSessions)
	mux.HandleFunc("POST /api/sessions", a.postSessions)
	mux.HandleFunc("GET /api/sessions/{id}", a.getSession)
	mux.HandleFunc("PUT /api/sessions/{id}", a.putSession)
	mux.HandleFunc("DELETE /api/sessions/{id}", a.deleteSession)
	mux.HandleFunc("POST /api/sessions/{id}/close", a.postSessionClose)

	mux.HandleFunc("POST /api/items/batch", a.postItemsBatch)
	mux.HandleFunc("PUT /api/items/{id}", a.putItem)
	mux.HandleFunc("DELETE /api/items/draft", a.deleteDraftItems)
	mux.HandleFunc("DELETE /api/items/{id}", a.deleteItem)
	mux.HandleFunc("POST /api/items/{id}/answer", a.postItemAnswer)
	mux.HandleFunc("POST /api/items/{id}/resolve", a.postItemResolve)
	mux.HandleFunc("POST /api/items/{id}/verify", a.postItemVerify)
	mux.HandleFunc("POST /api/items/{id}/reopen", a.postItemReopen)

	mux.HandleFunc("POST /api/agent-handoffs", a.postAgentHandoffs)
	mux.HandleFunc("POST /api/sessions/{id}/handoff-preview", a.postHandoffPreview)
	mux.HandleFunc("GET /api/sessions/{id}/export", a.getSessionExport)

	mux.HandleFunc("GET /api/app", a.getApp)
	mux.HandleFunc("POST /api/app/launch", a.postAppLaunch)
	mux.HandleFunc("POST /api/app/run", a.postAppRun)

	mux.HandleFunc("GET /api/agent", a.getAgent)
	mux.HandleFunc("GET /api/connect", a.getConnect)
	mux.HandleFunc("GET /api/agent-control", a.getAgentControl)
	mux.HandleFunc("PUT /api/agent-control", a.putAgentControl)
	mux.HandleFunc("GET /api/device-actions", a.getDeviceActions)
	mux.HandleFunc("GET /api/captures/{id}/image", a.getCaptureImage)

	mux.HandleFunc("GET /api/screens/{screenId}/image", a.getScreenImage)
	mux.HandleFunc("GET /api/items/{id}/crop", a.getItemCrop)
	mux.HandleFunc("GET /api/items/{id}/sources", a.getItemSources)
	mux.HandleFunc("GET /api/items/{id}/runtime-evidence", a.getItemEvidence)
	mux.HandleFunc("POST /api/items/{id}/runtime-evidence/collect", a.postItemEvidenceCollect)

	mux.HandleFunc("GET /api/voice", a.getVoice)
	mux.HandleFunc("PUT /api/voice/key", a.putVoiceKey)
	mux.HandleFunc("DELETE /api/voice/key", a.deleteVoiceKey)
	mux.HandleFunc("POST /api/voice/sessions", a.postVoiceSessions)
	mux.HandleFunc("PUT /api/voice/sessions/{voiceSessionId}", a.putVoiceSession)
	mux.HandleFunc("DELETE /api/voice/sessions/{voiceSessionId}", a.deleteVoiceSession)
	mux.HandleFunc("POST /api/voice/sessions/{voiceSessionId}/audio", a.postVoiceAudio)
	mux.HandleFunc("POST /api/voice/sessions/{voiceSessionId}/anchors", a.postVoiceAnchors)

	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		httpapi.WriteError(w, errcode.New(errcode.NotFound, "%s %s is not a console API route", r.Method, errcode.Quote(r.URL.Path)))
	})
	return a.logServerErrors(mux)
}

// logServerErrors logs every 5xx answer (500, 502, 503, 507, …) with its error
// body. Only the path is logged, never the query or the headers, where the
// console token travels.
func (a *App) logServerErrors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		if rec.status >= 500 {
			a.log.Error("console API error", "method", r.Method, "path", r.URL.Path, "status", rec.status, "body", string(rec.body))
		}
	})
}

// statusRecorder keeps the status and the start of an error body.
type statusRecorder struct {
	http.ResponseWriter
	status int
	body   []byte
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	if s.status >= 500 && len(s.body) < 512 {
		s.body = append(s.body, b[:min(len(b), 512-len(s.body))]...)
	}
	return s.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// Flush keeps the event stream working through the recorder.
func (s *statusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

package app

import (
	"net/http"

	"fixthis/app/errcode"
	"fixthis/app/feedbackapi"
	"fixthis/app/httpapi"
	"fixthis/app/talk"
)

// APIHandler is the console API (/api/*) without authentication: the Wails window
// mounts it directly; serve mode wraps it in the console guard.
func (a *App) APIHandler() http.Handler {
	mux := http.NewServeMux()
	fb := feedbackapi.Routes{Store: a.store, Feedback: a.feedback, Prompts: a.prompts, Sources: a.sources}
	voiceAPI := talk.Routes{Voice: a.voice, Store: a.store, Device: a.device, Port: a.voicePort, Console: "a browser console"}
	if a.mode == ModeDesktop {
		voiceAPI.Console = "the desktop window"
	}
	disp := displayRoutes{feedback: a.feedback, displays: a.displays, device: a.device}
	targetApp := targetAppRoutes{watcher: a.targetApp}
	preview := previewRoutes{device: a.device, store: a.store, feedback: a.feedback, log: a.log, shutdown: a.shutdown}
	// One route table: every console route is registered here.
	mux.HandleFunc("GET /api/health", a.getHealth)
	mux.HandleFunc("GET /api/events", a.getEvents)

	mux.HandleFunc("GET /api/devices", a.getDevices)
	mux.HandleFunc("POST /api/devices/refresh", a.postDevicesRefresh)
	mux.HandleFunc("POST /api/device/select", a.postDeviceSelect)
	mux.HandleFunc("POST /api/device/disconnect", a.postDeviceDisconnect)
	mux.HandleFunc("GET /api/display", disp.getDisplay)
	mux.HandleFunc("PUT /api/display", disp.putDisplay)
	mux.HandleFunc("POST /api/display/restore", disp.postDisplayRestore)

	mux.HandleFunc("GET /api/preview", preview.getPreview)
	mux.HandleFunc("GET /api/preview/{id}/image", preview.getPreviewImage)
	mux.HandleFunc("POST /api/preview/freeze", preview.postPreviewFreeze)
	mux.HandleFunc("POST /api/preview/resume", preview.postPreviewResume)
	mux.HandleFunc("POST /api/preview/tap", preview.postPreviewTap)
	mux.HandleFunc("POST /api/preview/stage", preview.postPreviewStage)
	mux.HandleFunc("POST /api/preview/stats", preview.postPreviewStats)
	mux.HandleFunc("POST /api/preview/{id}/audit", fb.PostPreviewAudit)
	mux.HandleFunc("POST /api/preview/{id}/audit/dismiss", fb.PostPreviewAuditDismiss)
	mux.HandleFunc("GET /api/preview/stream", preview.getPreviewStream)
	mux.HandleFunc("POST /api/preview/clip", preview.postPreviewClip)
	mux.HandleFunc("POST /api/preview/clip/record", preview.postPreviewClipRecord)
	mux.HandleFunc("GET /api/clips/{id}/video", preview.getClipVideo)
	mux.HandleFunc("GET /api/clips/{id}/strip", preview.getClipStrip)
	mux.HandleFunc("GET /api/sessions", fb.GetSessions)
	mux.HandleFunc("POST /api/sessions", fb.PostSessions)
	mux.HandleFunc("GET /api/sessions/{id}", fb.GetSession)
	mux.HandleFunc("PUT /api/sessions/{id}", fb.PutSession)
	mux.HandleFunc("DELETE /api/sessions/{id}", fb.DeleteSession)
	mux.HandleFunc("POST /api/sessions/{id}/close", fb.PostSessionClose)

	mux.HandleFunc("POST /api/items/batch", fb.PostItemsBatch)
	mux.HandleFunc("PUT /api/items/{id}", fb.PutItem)
	mux.HandleFunc("DELETE /api/items/draft", fb.DeleteDraftItems)
	mux.HandleFunc("DELETE /api/items/{id}", fb.DeleteItem)
	mux.HandleFunc("POST /api/items/{id}/answer", fb.PostItemAnswer)
	mux.HandleFunc("POST /api/items/{id}/resolve", fb.PostItemResolve)
	mux.HandleFunc("POST /api/items/{id}/verify", fb.PostItemVerify)
	mux.HandleFunc("POST /api/items/{id}/reopen", fb.PostItemReopen)

	mux.HandleFunc("POST /api/agent-handoffs", fb.PostAgentHandoffs)
	mux.HandleFunc("POST /api/sessions/{id}/handoff-preview", fb.PostHandoffPreview)
	mux.HandleFunc("GET /api/sessions/{id}/export", fb.GetSessionExport)

	mux.HandleFunc("GET /api/target-app", targetApp.getTargetApp)
	mux.HandleFunc("POST /api/target-app/launch", targetApp.postTargetAppLaunch)
	mux.HandleFunc("POST /api/target-app/run", targetApp.postTargetAppRun)

	mux.HandleFunc("GET /api/agent", a.getAgent)
	mux.HandleFunc("GET /api/connect", a.getConnect)
	mux.HandleFunc("GET /api/agent-control", a.getAgentControl)
	mux.HandleFunc("PUT /api/agent-control", a.putAgentControl)
	mux.HandleFunc("GET /api/device-actions", a.getDeviceActions)
	mux.HandleFunc("GET /api/captures/{id}/image", a.getCaptureImage)

	mux.HandleFunc("GET /api/screens/{screenId}/image", fb.GetScreenImage)
	mux.HandleFunc("GET /api/items/{id}/crop", fb.GetItemCrop)
	mux.HandleFunc("POST /api/items/{id}/check-sizes", fb.PostItemCheckSizes)
	mux.HandleFunc("GET /api/items/{id}/sizes/{n}/{kind}", fb.GetItemSizePicture)
	mux.HandleFunc("GET /api/items/{id}/sources", fb.GetItemSources)
	mux.HandleFunc("GET /api/items/{id}/runtime-evidence", fb.GetItemEvidence)
	mux.HandleFunc("POST /api/items/{id}/runtime-evidence/collect", fb.PostItemEvidenceCollect)
	mux.HandleFunc("GET /api/items/{id}/network", fb.GetItemNetwork)

	mux.HandleFunc("GET /api/voice", voiceAPI.GetVoice)
	mux.HandleFunc("PUT /api/voice/key", voiceAPI.PutVoiceKey)
	mux.HandleFunc("DELETE /api/voice/key", voiceAPI.DeleteVoiceKey)
	mux.HandleFunc("POST /api/voice/sessions", voiceAPI.PostVoiceSessions)
	mux.HandleFunc("PUT /api/voice/sessions/{voiceSessionId}", voiceAPI.PutVoiceSession)
	mux.HandleFunc("DELETE /api/voice/sessions/{voiceSessionId}", voiceAPI.DeleteVoiceSession)
	mux.HandleFunc("POST /api/voice/sessions/{voiceSessionId}/audio", voiceAPI.PostVoiceAudio)
	mux.HandleFunc("POST /api/voice/sessions/{voiceSessionId}/anchors", voiceAPI.PostVoiceAnchors)

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

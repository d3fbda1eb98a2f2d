package app

import (
	"fixthis/app/errcode"
	"net/http"
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

	mux.HandleFunc("GET /api/preview", a.getPreview)
	mux.HandleFunc("GET /api/preview/{previewId}/image", a.getPreviewImage)
	mux.HandleFunc("POST /api/preview/freeze", a.postPreviewFreeze)
	mux.HandleFunc("POST /api/preview/resume", a.postPreviewResume)
	mux.HandleFunc("POST /api/preview/tap", a.postPreviewTap)
	mux.HandleFunc("POST /api/preview/stage", a.postPreviewStage)
	mux.HandleFunc("GET /api/preview/stream", a.getPreviewStream)
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

	mux.HandleFunc("POST /api/agent-handoffs", a.postAgentHandoffs)
	mux.HandleFunc("POST /api/sessions/{id}/handoff-preview", a.postHandoffPreview)
	mux.HandleFunc("GET /api/sessions/{id}/export", a.getSessionExport)

	mux.HandleFunc("GET /api/agent", a.getAgent)
	mux.HandleFunc("GET /api/connect", a.getConnect)

	mux.HandleFunc("GET /api/screens/{screenId}/image", a.getScreenImage)
	mux.HandleFunc("GET /api/items/{id}/crop", a.getItemCrop)
	mux.HandleFunc("GET /api/items/{id}/sources", a.getItemSources)

	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, errcode.New(errcode.NotFound, "%s %s is not a console API route", r.Method, r.URL.Path))
	})
	return mux
}

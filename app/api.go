package app

import (
	"net/http"
)

// APIHandler is the console API (/api/*) without authentication: the Wails window
// mounts it directly; serve mode wraps it in the console guard.
func (a *App) APIHandler() http.Handler {
	mux := http.NewServeMux()
	// One route table: every console route is registered here.
	mux.HandleFunc("GET /api/health", a.getHealth)
	mux.HandleFunc("GET /api/events", a.getEvents)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, apiError{Code: "not_found", Message: r.Method + " " + r.URL.Path + " is not a console API route"})
	})
	return mux
}

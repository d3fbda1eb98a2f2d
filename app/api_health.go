package app

import (
	"net/http"

	"fixthis/app/httpapi"
)

// Health is the body of GET /api/health.
type Health struct {
	Status  string `json:"status"` // always "ok"
	Version string `json:"version"`
}

// getHealth answers liveness probes and tells the console which version it talks to.
func (a *App) getHealth(w http.ResponseWriter, r *http.Request) {
	httpapi.WriteJSON(w, http.StatusOK, Health{Status: "ok", Version: a.version})
}

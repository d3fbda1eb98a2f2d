package app

import (
	"net/http"
	"strings"

	"fixthis/app/display"
	"fixthis/app/httpapi"
)

// The console's #displaySettings panel: read, change and restore the selected
// phone's display conditions.

// DisplaySettings is the body of GET /api/display and the answer to changing it.
type DisplaySettings struct {
	Serial string        `json:"serial"`
	State  display.State `json:"state"`
	// Conditions is what differs from the phone's defaults, as a saved screen's
	// display: line writes it ("" when nothing does).
	Conditions string `json:"conditions"`
	// Limits of the values the phone accepts.
	MinFontScale float64 `json:"minFontScale"`
	MaxFontScale float64 `json:"maxFontScale"`
	MinDensity   int     `json:"minDensity"`
	MaxDensity   int     `json:"maxDensity"`
	Restored     bool    `json:"restored,omitempty"`
}

// DisplayChangeRequest is the body of PUT /api/display: only what to change.
type DisplayChangeRequest struct {
	Serial string `json:"serial"`
	display.Change
}

// DisplayRestoreRequest is the body of POST /api/display/restore.
type DisplayRestoreRequest struct {
	Serial string `json:"serial"`
}

func displaySettings(serial string, st display.State) DisplaySettings {
	lo, hi := display.DensityRange(st.PhysicalDensity)
	return DisplaySettings{Serial: serial, State: st, Conditions: st.Line(), MinFontScale: display.MinFontScale,
		MaxFontScale: display.MaxFontScale, MinDensity: lo, MaxDensity: hi}
}

// getDisplay is GET /api/display?serial= (the selected device by default).
func (a *App) getDisplay(w http.ResponseWriter, r *http.Request) {
	t, err := a.feedback.DisplayTarget(r.Context(), strings.TrimSpace(r.URL.Query().Get("serial")))
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	st, err := a.displays.Read(r.Context(), t)
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, displaySettings(t.Serial, st))
}

// putDisplay changes what the body names; the phone's originals are saved first.
func (a *App) putDisplay(w http.ResponseWriter, r *http.Request) {
	var req DisplayChangeRequest
	if err := httpapi.DecodeJSON(r, &req); err != nil {
		httpapi.WriteError(w, err)
		return
	}
	if err := req.Change.RequireSome(); err != nil {
		httpapi.WriteError(w, err)
		return
	}
	t, err := a.feedback.DisplayTarget(r.Context(), strings.TrimSpace(req.Serial))
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	st, err := a.displays.Set(r.Context(), t, req.Change)
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	a.device.Preview.Poke() // the live view shows the change at once
	httpapi.WriteJSON(w, http.StatusOK, displaySettings(t.Serial, st))
}

// postDisplayRestore puts the phone's original values back.
func (a *App) postDisplayRestore(w http.ResponseWriter, r *http.Request) {
	var req DisplayRestoreRequest
	if err := httpapi.DecodeJSON(r, &req); err != nil {
		httpapi.WriteError(w, err)
		return
	}
	t, err := a.feedback.DisplayTarget(r.Context(), strings.TrimSpace(req.Serial))
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	restored, err := a.displays.Restore(r.Context(), t)
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	st, err := a.displays.Read(r.Context(), t)
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	a.device.Preview.Poke()
	out := displaySettings(t.Serial, st)
	out.Restored = restored
	httpapi.WriteJSON(w, http.StatusOK, out)
}

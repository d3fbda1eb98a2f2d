package app

import (
	"context"
	"net/http"
	"strings"

	"fixthis/app/device"
	"fixthis/app/display"
	"fixthis/app/feedback"
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

// displayRoutes serve the console's display panel.
type displayRoutes struct {
	feedback *feedback.Service
	displays *display.Manager
	device   *device.Service
}

// getDisplay is GET /api/display?serial= (the selected device by default).
func (h displayRoutes) getDisplay(w http.ResponseWriter, r *http.Request) {
	out, err := h.onPhone(r.Context(), r.URL.Query().Get("serial"), false, func(ctx context.Context, t display.Target) (display.State, bool, error) {
		st, err := h.displays.Read(ctx, t)
		return st, false, err
	})
	httpapi.Answer(w, out, err)
}

// putDisplay changes what the body names; the phone's originals are saved first.
func (h displayRoutes) putDisplay(w http.ResponseWriter, r *http.Request) {
	httpapi.DecodeAnswer(w, r, httpapi.DecodeJSON, func(req DisplayChangeRequest) (DisplaySettings, error) {
		if err := req.Change.Precheck(); err != nil {
			return DisplaySettings{}, err
		}
		return h.onPhone(r.Context(), req.Serial, true, func(ctx context.Context, t display.Target) (display.State, bool, error) {
			st, err := h.displays.Set(ctx, t, req.Change)
			return st, false, err
		})
	})
}

// postDisplayRestore puts the phone's original values back.
func (h displayRoutes) postDisplayRestore(w http.ResponseWriter, r *http.Request) {
	httpapi.DecodeAnswer(w, r, httpapi.DecodeJSON, func(req DisplayRestoreRequest) (DisplaySettings, error) {
		return h.onPhone(r.Context(), req.Serial, true, func(ctx context.Context, t display.Target) (display.State, bool, error) {
			restored, err := h.displays.Restore(ctx, t)
			if err != nil {
				return display.State{}, false, err
			}
			st, err := h.displays.Read(ctx, t)
			return st, restored, err
		})
	})
}

// onPhone runs act on serial's phone (the selected one when "") and returns the
// settings it leaves; after a change the live view is woken to show it at once.
func (h displayRoutes) onPhone(ctx context.Context, serial string, changes bool,
	act func(ctx context.Context, t display.Target) (display.State, bool, error)) (DisplaySettings, error) {
	t, err := h.feedback.DisplayTarget(ctx, strings.TrimSpace(serial))
	if err != nil {
		return DisplaySettings{}, err
	}
	st, restored, err := act(ctx, t)
	if err != nil {
		return DisplaySettings{}, err
	}
	if changes {
		h.device.Preview.Poke()
	}
	out := displaySettings(t.Serial, st)
	out.Restored = restored
	return out, nil
}

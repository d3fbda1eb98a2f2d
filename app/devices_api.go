package app

import (
	"net/http"
)

func (a *App) getDevices(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, a.devices.payload())
}

func (a *App) postDevicesRefresh(w http.ResponseWriter, r *http.Request) {
	if err := a.devices.Refresh(r.Context()); err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, a.devices.payload())
}

func (a *App) postDeviceSelect(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Serial string `json:"serial"`
	}
	if err := decodeJSON(r, &req); err != nil {
		writeError(w, err)
		return
	}
	if req.Serial == "" {
		writeError(w, errorf(http.StatusUnprocessableEntity, "invalid_input", "INVALID_INPUT: serial is required"))
		return
	}
	dev, err := a.devices.Select(req.Serial)
	if err != nil {
		writeError(w, err)
		return
	}
	a.preview.poke()
	writeJSON(w, http.StatusOK, map[string]any{"selectedSerial": dev.Serial, "device": dev})
}

// postDeviceDisconnect is the device chip's ×: FixThis's selection and forwards only.
func (a *App) postDeviceDisconnect(w http.ResponseWriter, r *http.Request) {
	if dev, err := a.devices.Selected(); err == nil {
		a.sidekicks.forget(r.Context(), dev.Serial)
	}
	if err := a.devices.Clear(r.Context()); err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"selectedSerial": ""})
}

package app

import (
	"net/http"

	"fixthis/app/device"
	"fixthis/app/httpapi"
)

// LastSelectedSerialKey is the setting that remembers the device the console last
// selected.
const LastSelectedSerialKey = "lastSelectedSerial"

// DeviceSelection is the answer to selecting or clearing a device.
type DeviceSelection struct {
	SelectedSerial string       `json:"selectedSerial"`
	Device         *device.View `json:"device,omitempty"`
}

func (a *App) getDevices(w http.ResponseWriter, r *http.Request) {
	httpapi.WriteJSON(w, http.StatusOK, a.device.Registry.List())
}

func (a *App) postDevicesRefresh(w http.ResponseWriter, r *http.Request) {
	if err := a.device.Registry.Refresh(r.Context()); err != nil {
		httpapi.WriteError(w, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, a.device.Registry.List())
}

// DeviceSelectRequest is the body of POST /api/device/select.
type DeviceSelectRequest struct {
	Serial string `json:"serial"`
}

func (a *App) postDeviceSelect(w http.ResponseWriter, r *http.Request) {
	httpapi.DecodeAnswer(w, r, httpapi.DecodeJSON, func(req DeviceSelectRequest) (DeviceSelection, error) {
		if req.Serial == "" {
			return DeviceSelection{}, httpapi.InvalidInput("serial is required")
		}
		prev := a.selectedOnline()
		dev, err := a.device.Select(req.Serial)
		if err != nil {
			return DeviceSelection{}, err
		}
		if prev != dev.Serial {
			a.restoreDisplay(r.Context(), prev) // the phone left is put back as it was
		}
		// The stdio sidecar drives this device when the app is not running.
		if a.store != nil {
			if err := a.store.SetSetting(r.Context(), LastSelectedSerialKey, dev.Serial); err != nil {
				a.log.Warn("remember the selected device", "serial", dev.Serial, "err", err)
			}
		}
		return DeviceSelection{SelectedSerial: dev.Serial, Device: &dev}, nil
	})
}

// postDeviceDisconnect is the device chip's ×: FixThis's selection and forwards only.
func (a *App) postDeviceDisconnect(w http.ResponseWriter, r *http.Request) {
	a.restoreDisplay(r.Context(), a.selectedOnline())
	httpapi.Answer(w, DeviceSelection{}, a.device.Disconnect(r.Context()))
}

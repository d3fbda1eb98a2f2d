package app

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"fixthis/app/agentdevice"
	"fixthis/app/errcode"
	"fixthis/app/feedbackapi"
	"fixthis/app/httpapi"
	"fixthis/app/store"
)

// Agents on the phone: whether the user lets agents drive a device, what they did on
// it, and the screens they captured.

// getAgentControl is GET /api/agent-control?serial= (the selected device by default).
func (a *App) getAgentControl(w http.ResponseWriter, r *http.Request) {
	st, err := a.controlState(r.Context(), r.URL.Query().Get("serial"))
	httpapi.Answer(w, st, err)
}

// AgentControlRequest is the body of PUT /api/agent-control.
type AgentControlRequest struct {
	Serial  string `json:"serial"`
	Allowed *bool  `json:"allowed"`
}

// putAgentControl records the user's answer: "Agents may control the phone".
func (a *App) putAgentControl(w http.ResponseWriter, r *http.Request) {
	httpapi.DecodeAnswer(w, r, httpapi.DecodeJSON, func(req AgentControlRequest) (agentdevice.ControlState, error) {
		if req.Allowed == nil {
			return agentdevice.ControlState{}, httpapi.InvalidInput("allowed (true or false) is required")
		}
		if strings.TrimSpace(req.Serial) == "" {
			// An answer is about one phone: never let it land on whichever is selected now.
			return agentdevice.ControlState{}, httpapi.InvalidInput("serial is required: name the device the answer is for")
		}
		dev, err := a.device.Registry.Lookup(req.Serial)
		if err != nil {
			return agentdevice.ControlState{}, err
		}
		if err := agentdevice.SetControl(r.Context(), a.store, dev.Serial, *req.Allowed); err != nil {
			return agentdevice.ControlState{}, err
		}
		return a.controlState(r.Context(), dev.Serial)
	})
}

func (a *App) controlState(ctx context.Context, serial string) (agentdevice.ControlState, error) {
	dev, err := a.device.Registry.Lookup(serial)
	if err != nil {
		return agentdevice.ControlState{}, err
	}
	return agentdevice.Control(ctx, a.store, dev.Serial, dev.IsDemo)
}

// DeviceActionList is the body of GET /api/device-actions.
type DeviceActionList struct {
	Actions []store.DeviceAction `json:"actions"`
}

// getDeviceActions is the newest agent actions (after=SEQ for the ones after a seq).
func (a *App) getDeviceActions(w http.ResponseWriter, r *http.Request) {
	var after int64
	if v := r.URL.Query().Get("after"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			httpapi.WriteError(w, errcode.New(errcode.InvalidQuery, "after must be a device action number (0 or more), not %s", errcode.Quote(v)))
			return
		}
		after = n
	}
	list, err := a.store.DeviceActions(r.Context(), after)
	httpapi.Answer(w, DeviceActionList{Actions: list}, err)
}

// getCaptureImage serves an agent capture's frame (the "after" screen).
func (a *App) getCaptureImage(w http.ResponseWriter, r *http.Request) {
	c, err := a.store.GetCapture(r.Context(), r.PathValue("id"))
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	feedbackapi.ServeArtifact(w, r, a.store, c.ImageArtifact, "image/png")
}

// publishDeviceActions sends consoles the actions recorded since the last ones sent.
func (a *App) publishDeviceActions(ctx context.Context) {
	list, err := a.store.DeviceActions(ctx, a.actionSeq.Load())
	if err != nil {
		return
	}
	for _, act := range list {
		if act.Seq > a.actionSeq.Load() {
			a.actionSeq.Store(act.Seq)
			DeviceActionEvent.Publish(a.bus, act)
		}
	}
}

// publishControl sends the selected device's control state (an agent asked, or the
// user answered).
func (a *App) publishControl(ctx context.Context) {
	if st, err := a.controlState(ctx, ""); err == nil {
		AgentControlEvent.Publish(a.bus, st)
	}
}

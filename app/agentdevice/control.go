package agentdevice

import (
	"context"
	"strconv"
	"time"

	"fixthis/app/errcode"
	"fixthis/app/store"
)

// The user's word on agents driving a device lives in the store, so the console, the
// app's /mcp and every stdio sidecar see the same answer.
const (
	controlKeyPrefix = "agentControl:"        // + serial → allow | deny
	requestKeyPrefix = "agentControlRequest:" // + serial → unix ms of an unanswered ask
	ControlAllow     = "allow"
	ControlDeny      = "deny"
)

// ControlKey is the setting that holds the user's answer for serial.
func ControlKey(serial string) string { return controlKeyPrefix + serial }

// RequestKey is the setting that says an agent waits for the user's answer for serial.
func RequestKey(serial string) string { return requestKeyPrefix + serial }

// ControlState is the user's answer for a device, as the console shows it.
type ControlState struct {
	Serial  string `json:"serial"`
	Allowed bool   `json:"allowed"`
	// Decided says the user answered (or the device is the demo one, always allowed).
	Decided bool `json:"decided"`
	// Pending says an agent is waiting for the user's answer now.
	Pending bool `json:"pending"`
}

// Control reads the state for serial.
func Control(ctx context.Context, st *store.Store, serial string, demo bool) (ControlState, error) {
	s := ControlState{Serial: serial}
	v, err := st.GetSetting(ctx, ControlKey(serial))
	if err != nil {
		return s, err
	}
	switch {
	case v == ControlAllow || v == ControlDeny:
		s.Decided, s.Allowed = true, v == ControlAllow
	case demo:
		s.Decided, s.Allowed = true, true
	}
	if !s.Decided {
		req, err := st.GetSetting(ctx, RequestKey(serial))
		if err != nil {
			return s, err
		}
		if ms, err := strconv.ParseInt(req, 10, 64); err == nil && time.Since(time.UnixMilli(ms)) < time.Minute {
			s.Pending = true
		}
	}
	return s, nil
}

// SetControl records the user's answer and clears any pending ask.
func SetControl(ctx context.Context, st *store.Store, serial string, allow bool) error {
	v := ControlDeny
	if allow {
		v = ControlAllow
	}
	if err := st.SetSetting(ctx, ControlKey(serial), v); err != nil {
		return err
	}
	return st.SetSetting(ctx, RequestKey(serial), "")
}

// allowed asks the store whether agents may drive t, asking the user (through the
// console) the first time and waiting a while for the answer.
func (p *Phone) allowed(ctx context.Context, t Target) error {
	asked := false
	deadline := time.NewTimer(p.o.AskTimeout)
	defer deadline.Stop()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		s, err := Control(ctx, p.o.Store, t.Serial, t.Demo)
		switch {
		case err != nil:
			return err
		case s.Decided && s.Allowed:
			return nil
		case s.Decided:
			return errcode.New(errcode.ControlRefused, "the user does not let agents control %s; they can allow it in "+
				"the FixThis console (Agents may control the phone)", name(t))
		case !asked:
			// The console shows the question while this request is fresh.
			if err := p.o.Store.SetSetting(ctx, RequestKey(t.Serial), strconv.FormatInt(time.Now().UnixMilli(), 10)); err != nil {
				return err
			}
			asked = true
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-deadline.C:
			return errcode.New(errcode.ControlRefused, "the user has not answered whether agents may control %s; "+
				"ask them to answer in the FixThis console, then try again", name(t))
		case <-tick.C:
		}
	}
}

func name(t Target) string {
	if t.Model != "" {
		return t.Model + " (" + t.Serial + ")"
	}
	return t.Serial
}

package feedback

import (
	"context"
	"time"

	"fixthis/app/display"
	"fixthis/app/store"
	"fixthis/app/targetrun"
)

// DisplayTarget is serial's phone (its SDK from the device list) and the app whose
// locale is set: the target app when it is installed there, else the app in front.
// The console's display panel, the agents' display tools and a save's conditions
// all name their phone through it.
func (s *Service) DisplayTarget(ctx context.Context, serial string) (display.Target, error) {
	v, err := s.device.Registry.Lookup(serial)
	if err != nil {
		return display.Target{}, err
	}
	return display.Target{Shell: s.device.ADB().Device(v.Serial), Serial: v.Serial, SDK: v.SDK,
		Package: s.displayPackage(ctx, v.Serial)}, nil
}

// displayPackage is the app whose locale a display change on serial sets: the target
// app when it is installed there, else the app in front ("" behind the keyguard).
func (s *Service) displayPackage(ctx context.Context, serial string) string {
	if s.targetApp != nil {
		if d := s.targetApp.Last(); d.Installed && d.Serial == serial && d.ApplicationID != "" {
			return d.ApplicationID
		}
	}
	if f, err := targetrun.ReadFocus(ctx, s.device.ADB().Device(serial)); err == nil && !f.Keyguard {
		return f.Package
	}
	return ""
}

// ScreenConditions reads the display conditions serial shows now (a screen being
// kept records them); nil when the phone does not answer in time.
func (s *Service) ScreenConditions(ctx context.Context, serial string) *store.DisplayConditions {
	if s.displays == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	t, err := s.DisplayTarget(ctx, serial)
	if err != nil {
		return nil
	}
	st, err := s.displays.Read(ctx, t)
	if err != nil {
		s.log.Warn("read the display conditions", "serial", serial, "err", err)
		return nil
	}
	return st.Conditions()
}

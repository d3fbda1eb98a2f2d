package app

import (
	"context"

	"fixthis/app/agentdevice"
	"fixthis/app/targetrun"
)

// agentPhone serves the MCP device tools from the app's device service: the device
// the user looks at, with the same capturer and the same live preview, which wakes
// after every agent action.
func (a *App) agentPhone() *agentdevice.Phone {
	return agentdevice.New(agentdevice.Options{
		ADB:        a.device.ADB(),
		Capturer:   a.device.Capturer,
		Store:      a.store,
		ProjectDir: a.projectDir,
		Pick: func(ctx context.Context, serial string) (agentdevice.Target, error) {
			v, err := a.device.Registry.Lookup(serial)
			if err != nil {
				return agentdevice.Target{}, err
			}
			return agentdevice.Target{Serial: v.Serial, Model: v.Model, Demo: v.IsDemo}, nil
		},
		AfterAction: func(string) { a.device.Preview.Poke() },
		ScreenKept:  a.feedback.ScreenFrozen,
		TrackRun: func() (func(targetrun.Progress), func(targetrun.Result, error), error) {
			t, err := a.targetApp.Track()
			if err != nil {
				return nil, nil, err
			}
			return t.Progress, t.Finish, nil
		},
		Log:           a.log,
		Display:       a.displays,
		DisplayTarget: a.feedback.DisplayTarget,
	})
}

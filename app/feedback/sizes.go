package feedback

import (
	"context"

	"fixthis/app/agentdevice"
	"fixthis/app/display"
	"fixthis/app/errcode"
	"fixthis/app/targetrun"
)

// CheckSizes is the console's Check sizes on a saved item: the check
// fixthis_check_sizes runs (agentdevice.Phone's, one function for both), on the
// selected phone, which must show the item's app. The user started it, so no leave
// for agents is asked; the phone ends as it was and the check is stored on the item.
func (s *Service) CheckSizes(ctx context.Context, sessionID, itemID string) (*agentdevice.CheckSizesResult, error) {
	if s.displays == nil {
		return nil, errcode.New(errcode.DeviceNotAvailable, "window sizes cannot be changed in this process")
	}
	item, err := s.store.ReadItem(ctx, sessionID, itemID)
	if err != nil {
		return nil, err
	}
	dev, err := s.device.Registry.Selected()
	if err != nil {
		return nil, errcode.Wrap(errcode.DeviceNotAvailable, err, "select the phone the item was written on to check it on sizes: %v", err)
	}
	pkg := ""
	if item.Screen != nil {
		pkg = item.Screen.Package
	}
	if pkg != "" {
		// Sizes are shown on the app in front: a check on another app would find
		// nothing and say so on every size.
		f, err := targetrun.ReadFocus(ctx, s.device.ADB().Device(dev.Serial))
		if err == nil && f.Package != pkg {
			shown := f.Package
			if f.Keyguard {
				shown = "the lock screen"
			} else if shown == "" {
				shown = "no app"
			}
			return nil, errcode.New(errcode.DeviceNotAvailable, "%s shows %s, but the item was written on %s: open it on this phone, then check sizes",
				dev.Serial, errcode.Quote(shown), errcode.Quote(pkg))
		}
	}
	phone := agentdevice.New(agentdevice.Options{
		ADB: s.device.ADB(), Capturer: s.device.Capturer, Store: s.store, Log: s.log, Display: s.displays,
		Pick: func(context.Context, string) (agentdevice.Target, error) {
			return agentdevice.Target{Serial: dev.Serial, Model: dev.Model, Demo: dev.IsDemo}, nil
		},
		// The item's own app is the one brought back to the front after each size.
		DisplayTarget: func(ctx context.Context, serial string) (display.Target, error) {
			t, err := s.DisplayTarget(ctx, serial)
			if err == nil && pkg != "" {
				t.Package = pkg
			}
			return t, err
		},
		AfterAction: func(string) { s.device.Preview.Poke() },
	})
	return phone.CheckSizesForUser(ctx, dev.Serial, item.Item.SessionID, item.Item.ItemID, nil)
}

package app

import (
	"context"
	"time"

	"fixthis/app/display"
	"fixthis/app/store"
	"fixthis/app/targetrun"
)

// The phone's display conditions: the console's #displaySettings panel and the
// agents' display tools share one display.Manager, which keeps each phone's original
// values from the first change. They are restored when the phone is deselected, when
// FixThis quits, and, after a crash, on the next start once the phone is online.

// openDisplays opens the manager on the project's saved originals.
func (a *App) openDisplays() *display.Manager {
	path := ""
	if a.store != nil {
		path = a.store.Locations().DisplayOriginals()
	}
	m, err := display.Open(path)
	if err != nil {
		a.log.Warn("saved display settings", "err", err)
	}
	m.OnChange = func(serial string) { display.ChangedEvent.Publish(a.bus, display.Changed{Serial: serial}) }
	return m
}

// displayTarget is serial's phone (its SDK from the device list) and the app whose
// locale is set: the project's app when it is installed there, else the app in front.
func (a *App) displayTarget(ctx context.Context, serial string) (display.Target, error) {
	v, err := a.device.Registry.Lookup(serial)
	if err != nil {
		return display.Target{}, err
	}
	return display.Target{Shell: a.adb.Device(v.Serial), Serial: v.Serial, SDK: v.SDK, Package: a.displayPackage(ctx, v.Serial)}, nil
}

func (a *App) displayPackage(ctx context.Context, serial string) string {
	if d := a.appw.Last(); d.Installed && d.Serial == serial && d.ApplicationID != "" {
		return d.ApplicationID
	}
	if f, err := targetrun.ReadFocus(ctx, a.adb.Device(serial)); err == nil && !f.Keyguard {
		return f.Package
	}
	return ""
}

// screenConditions reads the conditions a screen being saved was drawn under; nil
// when the phone does not answer in time (the screen is saved without them).
func (a *App) screenConditions(ctx context.Context, serial string) *store.DisplayConditions {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	t, err := a.displayTarget(ctx, serial)
	if err != nil {
		return nil
	}
	st, err := a.displays.Read(ctx, t)
	if err != nil {
		a.log.Warn("read the display conditions", "serial", serial, "err", err)
		return nil
	}
	return st.Conditions()
}

// restoreDisplay puts serial's originals back, if FixThis holds any.
func (a *App) restoreDisplay(ctx context.Context, serial string) {
	if serial == "" || !a.displays.Changed(serial) {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	t, err := a.displayTarget(ctx, serial)
	if err == nil {
		_, err = a.displays.Restore(ctx, t)
	}
	if err != nil {
		a.log.Warn("restore the display settings", "serial", serial, "err", err)
		return
	}
	a.log.Info("restored the display settings", "serial", serial)
	a.device.Preview.Poke()
}

// keepDisplays restores what a crashed run left changed as each such phone comes
// online, and everything still changed when ctx ends (FixThis quits).
func (a *App) keepDisplays(ctx context.Context) {
	left := a.displays.Pending() // by a run that did not get to restore them
	for {
		changes := a.device.Registry.Changes()
		var still []string
		for _, serial := range left {
			if a.device.Registry.IsOnline(serial) {
				a.restoreDisplay(ctx, serial)
			} else {
				still = append(still, serial)
			}
		}
		left = still
		select {
		case <-ctx.Done():
			for _, serial := range a.displays.Pending() {
				a.restoreDisplay(context.WithoutCancel(ctx), serial)
			}
			return
		case <-changes:
		}
	}
}

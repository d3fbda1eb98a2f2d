package app

import (
	"context"
	"time"

	"fixthis/app/display"
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

// restoreDisplay puts serial's originals back, if FixThis holds any.
func (a *App) restoreDisplay(ctx context.Context, serial string) {
	if serial == "" || !a.displays.Changed(serial) {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	t, err := a.feedback.DisplayTarget(ctx, serial)
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

//go:build desktop

package desktop

import (
	"context"
	"log/slog"
	"sync"

	wailsruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"fixthis/app/windowplace"
)

// The window's preferred and smallest sizes; both yield to a smaller screen.
var (
	windowPreferred = windowplace.Size{Width: 1440, Height: 900}
	windowMinimum   = windowplace.Size{Width: 960, Height: 640}
)

// windowPlacer opens the window at a size that fits the monitor, puts it back where
// the user last left it, and remembers where that is when the window closes.
type windowPlacer struct {
	log    *slog.Logger
	path   string // where the place is kept; "" when there is no config folder
	work   windowplace.Rect
	known  bool // the work area was read
	saved  *windowplace.Rect
	place  windowplace.Rect
	min    windowplace.Size
	placed sync.Once
	saving sync.Mutex // a signal and the close button may both remember at once
}

func newWindowPlacer(log *slog.Logger) *windowPlacer {
	p := &windowPlacer{log: log}
	if path, err := windowplace.DefaultPath(); err == nil {
		p.path = path
		p.saved = windowplace.Load(path)
	}
	work, err := workArea()
	p.known = err == nil
	if p.known {
		p.work = work
	}
	p.place = windowplace.Place(p.work, windowPreferred, windowMinimum, p.saved)
	p.min = windowplace.MinFor(p.work, windowMinimum)
	log.Debug("window place", "workArea", p.work, "saved", p.saved != nil, "place", p.place)
	return p
}

// domReady runs once the page has loaded. Wails has centred the window on its
// monitor by then; a saved place moves it back where it was. Where the work area was
// not known (Windows, macOS), the monitor's size from Wails bounds the window now.
func (p *windowPlacer) domReady(ctx context.Context) {
	p.placed.Do(func() {
		switch {
		case p.known && p.saved != nil:
			// Wails positions relative to the window's monitor.
			wailsruntime.WindowSetPosition(ctx, p.place.X, p.place.Y)
		case !p.known:
			p.fitToScreen(ctx)
		}
		// Read back on the window's thread, after the moves queued above: the line
		// says where the window really is (the desktop smoke test waits for it).
		x, y := wailsruntime.WindowGetPosition(ctx)
		w, h := wailsruntime.WindowGetSize(ctx)
		p.log.Info("window placed", "x", x, "y", y, "width", w, "height", h, "saved", p.saved != nil)
	})
}

func (p *windowPlacer) fitToScreen(ctx context.Context) {
	screens, err := wailsruntime.ScreenGetAll(ctx)
	if err != nil {
		return
	}
	for _, s := range screens {
		if !s.IsCurrent {
			continue
		}
		work := windowplace.Rect{Width: s.Size.Width, Height: s.Size.Height}
		r := windowplace.Place(work, windowPreferred, windowMinimum, p.saved)
		min := windowplace.MinFor(work, windowMinimum)
		wailsruntime.WindowSetMinSize(ctx, min.Width, min.Height)
		wailsruntime.WindowSetSize(ctx, r.Width, r.Height)
		if p.saved != nil {
			wailsruntime.WindowSetPosition(ctx, r.X, r.Y)
		} else {
			wailsruntime.WindowCenter(ctx)
		}
		return
	}
}

// remember keeps the window's current place for the next start. It runs while the
// window still exists: before it closes, and before a signal quits the app.
func (p *windowPlacer) remember(ctx context.Context) {
	p.saving.Lock()
	defer p.saving.Unlock()
	if p.path == "" || wailsruntime.WindowIsMaximised(ctx) || wailsruntime.WindowIsFullscreen(ctx) {
		return
	}
	x, y := wailsruntime.WindowGetPosition(ctx)
	w, h := wailsruntime.WindowGetSize(ctx)
	if err := windowplace.Save(p.path, windowplace.Rect{X: x, Y: y, Width: w, Height: h}); err != nil {
		p.log.Warn("could not remember the window's place", "err", err)
	}
}

package device

import (
	"context"
	"sync"
	"time"

	"fixthis/capture"
	"fixthis/internal/tick"
)

// The warm tree: uiautomator takes about a second on a phone, most of a freeze. While
// a console watches and the screen holds still, the tree is dumped in the background,
// keyed by the exact pixels of the frame it was dumped under; a freeze (or an agent's
// capture, or a voice anchor) that finds those same pixels uses it instead of waiting
// for a dump. At most one dump per screen change, one at a time, never while the
// screen is changing, and never a stale tree: the pixels must match exactly.

const (
	// warmStillFor is how long the screen must show no change before a warm dump.
	warmStillFor = 600 * time.Millisecond
	// warmTick is how often the warmer looks.
	warmTick = 200 * time.Millisecond
)

// warmEntry is the tree of one screen.
type warmEntry struct {
	serial  string
	tree    capture.WarmTree
	changes uint64 // the preview's change count when the tree was known current
}

// warmFlight is a warm dump under way, for the screen the preview counted changes to.
type warmFlight struct {
	serial  string
	changes uint64
	done    chan struct{} // closed once the dump is kept or dropped
}

// warmer keeps the latest warm tree of the selected device.
type warmer struct {
	mu     sync.Mutex
	entry  *warmEntry
	flight *warmFlight
	// tried is the change count of the last look, so a still screen is looked at once.
	tried uint64
	dumps int // dumps made, for tests and the debug log
}

// current returns the warm tree for serial when the preview has seen no change since
// it was known current. After a change it is not offered: the capture then dumps in
// parallel with the frame, as it would without a warm tree, instead of first taking
// a frame only to find the tree stale.
func (w *warmer) current(serial string, changes uint64) *capture.WarmTree {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.entry == nil || w.entry.serial != serial || w.entry.changes != changes {
		return nil
	}
	t := w.entry.tree
	return &t
}

// await is current, after waiting for a warm dump under way for this very screen: a
// capture that arrives while it runs (the screen stood still, but not long enough for
// the dump to finish) would otherwise dump the same screen a second time beside it,
// and wait longer for its own dump than for the rest of this one. A dump of a screen
// that changed since is not waited for; a dropped one leaves the capture to dump.
func (w *warmer) await(ctx context.Context, serial string, changes func() uint64) *capture.WarmTree {
	w.mu.Lock()
	f := w.flight
	w.mu.Unlock()
	if f != nil && f.serial == serial && f.changes == changes() {
		select {
		case <-f.done:
		case <-ctx.Done():
		}
	}
	return w.current(serial, changes())
}

// runWarm looks every warmTick and dumps when the screen has held still.
func (s *Service) runWarm(ctx context.Context) {
	tick.Every(ctx, warmTick, func() {
		if err := s.digestStillOnce(ctx); err != nil {
			s.log.Debug("still screen's sidekick tree", "err", err)
		}
		if err := s.warmOnce(ctx); err != nil {
			s.log.Debug("warm tree", "err", err)
		}
	})
}

// watchedDevice is the selected device while a console watches its live view and
// nothing is frozen: the only time background reads of the screen are worth it.
func (s *Service) watchedDevice() (View, bool) {
	if !s.Preview.Watched() || s.Preview.isFrozen() {
		return View{}, false
	}
	dev, err := s.Registry.Selected()
	return dev, err == nil
}

// warmOnce makes one warm dump when it is worth it: a console watches the live view,
// nothing is frozen, the app has no sidekick (its tree comes in milliseconds), and the
// screen has held still since a change not looked at yet.
func (s *Service) warmOnce(ctx context.Context) error {
	p := s.Preview
	dev, ok := s.watchedDevice()
	if !ok {
		return nil
	}
	changes, still := p.stillSince()
	w := &s.warm
	w.mu.Lock()
	tried := w.tried
	w.mu.Unlock()
	if still < warmStillFor || changes == tried || s.Capturer.sidekicks.known(dev.Serial) {
		return nil
	}
	flight := &warmFlight{serial: dev.Serial, changes: changes, done: make(chan struct{})}
	w.mu.Lock()
	w.flight = flight
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		if w.flight == flight {
			w.flight = nil
		}
		w.mu.Unlock()
		close(flight.done)
	}()
	d := s.adb.Device(dev.Serial)
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	before, err := capture.CaptureFrame(cctx, d, "")
	if err != nil {
		return err
	}
	sum := capture.PixelsCRC(before)
	w.mu.Lock()
	w.tried = changes
	same := w.entry != nil && w.entry.serial == dev.Serial && w.entry.tree.PixelsCRC == sum
	if same {
		// A change that left the same pixels (a restarted video stream): still warm.
		w.entry.changes = changes
	}
	w.mu.Unlock()
	if same {
		return nil
	}
	hier, err := capture.DumpTree(cctx, d)
	if err != nil {
		return err
	}
	after, err := capture.CaptureFrame(cctx, d, "")
	if err != nil {
		return err
	}
	now, _ := p.stillSince()
	if capture.PixelsCRC(after) != sum || now != changes || p.isFrozen() {
		// The screen moved during the dump: the tree may be of either picture.
		return nil
	}
	w.mu.Lock()
	w.entry = &warmEntry{serial: dev.Serial, tree: capture.WarmTree{PixelsCRC: sum, Hierarchy: hier}, changes: changes}
	w.dumps++
	w.mu.Unlock()
	s.log.Debug("warm tree ready", "serial", dev.Serial, "nodes", len(hier.Nodes))
	return nil
}

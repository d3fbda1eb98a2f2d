package device

import (
	"context"
	"strconv"
	"sync"
	"time"

	"fixthis/capture"
	"fixthis/internal/tick"
)

// screenCache keeps, per phone, the screen it shows (a KeptScreen),
// so a click resolves to a node, and a spoken unit finds its screen, without a
// capture on their path. An entry is current while the preview has counted no
// change since it was captured (raw frames and video pictures both count), so it is
// never the capture of another screen.
type screenCache struct {
	mu      sync.Mutex
	screens map[string]cachedScreen
}

type cachedScreen struct {
	kept    *KeptScreen
	changes uint64 // the preview's change count the capture belongs to
}

const (
	screenCheckEvery = 250 * time.Millisecond
	stillFor         = 300 * time.Millisecond
)

func (c *screenCache) get(serial string) (cachedScreen, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.screens[serial]
	return e, ok
}

func (c *screenCache) set(serial string, e cachedScreen) {
	c.mu.Lock()
	if c.screens == nil {
		c.screens = map[string]cachedScreen{}
	}
	c.screens[serial] = e
	c.mu.Unlock()
}

// KeepCurrentScreen runs until ctx ends. While watched names a phone and the preview
// is not frozen, a screen that stood still for stillFor after a change is kept (one
// capture and its display conditions) in the background. Without a sidekick it waits for the warm tree, so the
// phone never runs two uiautomator dumps at once. moved is called when the new
// capture shows another activity than the last one of the same phone.
func (s *Service) KeepCurrentScreen(ctx context.Context, watched func() string, moved func(serial string)) {
	tick.Every(ctx, screenCheckEvery, func() {
		if serial := watched(); serial != "" && !s.Preview.Frozen() {
			s.keepIfStill(ctx, serial, moved)
		}
	})
}

// keepIfStill keeps serial's screen when it has stood still since its last change
// and is not kept yet.
func (s *Service) keepIfStill(ctx context.Context, serial string, moved func(serial string)) {
	changes, still := s.Preview.Stillness()
	if still < stillFor {
		return
	}
	prev, had := s.screens.get(serial)
	if had && prev.changes == changes {
		return
	}
	if !s.HasSidekick(serial) && !s.WarmReady(serial) {
		return
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	kept, err := s.keep(cctx, serial, currentScreenID())
	cancel()
	if err != nil {
		s.log.Debug("background screen capture failed", "serial", serial, "err", err)
		return
	}
	if now, _ := s.Preview.Stillness(); now != changes || kept.Snapshot.Tree == nil {
		return // the screen moved during the capture
	}
	s.screens.set(serial, cachedScreen{kept: kept, changes: changes})
	was, is := "", kept.Snapshot.State.Activity
	if had {
		was = prev.kept.Snapshot.State.Activity
	}
	if was != "" && is != "" && was != is {
		moved(serial)
	}
}

// CurrentScreen is the kept screen serial shows now: the preview has
// seen no change since it was taken, or the change was small (a clock, a cursor) and
// the newest live frame, the one that showed it, still has the capture's perceptual
// hash. nil otherwise.
func (s *Service) CurrentScreen(serial string) *KeptScreen {
	e, ok := s.screens.get(serial)
	if !ok {
		return nil
	}
	changes, still := s.Preview.Stillness()
	if e.changes == changes {
		return e.kept
	}
	live, ok := s.Preview.LatestFrame(serial)
	// The newest raw frame shows the last change only when it was taken about then;
	// while the video stream carries the changes, raw frames are older and never count.
	if ok && time.Since(live.CapturedAt) < still+liveFrameSlack && sameScreen(e.kept.Snapshot, live.Perceptual) {
		return e.kept
	}
	return nil
}

// liveFrameSlack is how long before the noted change the frame showing it may have
// been taken (the capture's own duration on a slow phone).
const liveFrameSlack = time.Second

// maxTreeDistance is how many of the perceptual hash's 64 bits may differ for a
// capture to count as the one of the frame shown.
const maxTreeDistance = 6

// sameScreen reports whether snap was taken of the screen with perceptual hash p.
func sameScreen(snap *capture.Snapshot, p uint64) bool {
	h, err := strconv.ParseUint(snap.Fingerprint.Perceptual, 16, 64)
	return err == nil && capture.HammingDistance(h, p) <= maxTreeDistance
}

// ScreenNow is the screen serial shows now as a kept screen: the current one when
// the cache holds it (cached), else a new capture through the same keep as freezes
// and the background loop, frame, tree and display conditions read together. The
// new capture does not enter the cache: the background loop alone fills it, so it
// alone sees an activity change and reports it.
func (s *Service) ScreenNow(ctx context.Context, serial string) (k *KeptScreen, cached bool, err error) {
	if k := s.CurrentScreen(serial); k != nil {
		return k, true, nil
	}
	k, err = s.keep(ctx, serial, currentScreenID())
	return k, false, err
}

// currentScreenID names a kept screen that is not a freeze ("c…-N"); freezes are "f…-N".
func currentScreenID() string {
	return "c" + frozenRun + "-" + strconv.FormatUint(frozenIDs.Add(1), 10)
}

package feedback

import (
	"context"
	"errors"
	"sync"
	"time"

	"fixthis/app/device"
	"fixthis/capture"
)

// appIndexReadFor bounds one background read of an installed app's source index:
// through the sidekick it takes milliseconds, from a large APK a few seconds.
const appIndexReadFor = 30 * time.Second

// appIndexReads are the background reads of an installed app's source index in
// flight, one per phone and package.
type appIndexReads struct {
	mu      sync.Mutex
	running map[string]bool
}

// start runs read for key in the background unless one for key still runs.
func (r *appIndexReads) start(key string, read func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.running[key] {
		return
	}
	if r.running == nil {
		r.running = map[string]bool{}
	}
	r.running[key] = true
	go func() {
		defer func() {
			r.mu.Lock()
			delete(r.running, key)
			r.mu.Unlock()
		}()
		read()
	}()
}

// ScreenFrozen starts, beside the answer to a console's freeze or an agent's capture,
// what a kept screen is followed by: a watch of the app's WebView (see
// watchWebView), and the source index the app's installed build carries (read once
// per install, see device.Capturer.AppSourceIndex) merged into the running one, so
// the items drawn on it get candidates from it even without a project folder.
func (s *Service) ScreenFrozen(k *device.KeptScreen) {
	pkg, serial := k.Snapshot.State.Package, k.Serial
	if pkg == "" {
		return
	}
	s.watchWebView(serial, pkg)
	if s.sources == nil {
		return
	}
	s.appIndexReads.start(serial+"|"+pkg, func() {
		ctx, cancel := context.WithTimeout(context.Background(), appIndexReadFor)
		defer cancel()
		ai, from, err := s.device.Capturer.AppSourceIndex(ctx, serial, pkg)
		switch {
		case errors.Is(err, capture.ErrNoAppSourceIndex):
			s.log.Debug("the app's build carries no source index", "serial", serial, "package", pkg)
		case err != nil:
			s.log.Warn("could not read the app's source index", "serial", serial, "package", pkg, "err", err)
		default:
			if s.sources.AppIndex() != ai {
				s.sources.SetAppIndex(ai)
				s.log.Info("merged the app's source index", "package", pkg, "from", from, "entries", len(ai.Entries))
			}
		}
	})
}

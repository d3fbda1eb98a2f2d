package device

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"image"
	"strconv"
	"sync"
	"time"

	"fixthis/capture"
)

// A freeze on an app with the sidekick reads its tree in tens of milliseconds, but
// the frame is ~10 MB of raw pixels: about 300 ms over USB 2. The live screen fetches
// those same pixels anyway: the raw-frame preview takes a frame at every look, and
// beside a phone's H.264 video a raw still is taken after each change for clips
// (clips.go). So on a still screen a freeze takes the newest of those and reads only
// the tree.
//
// "Still" is decided from evidence, never assumed:
//   - the source has counted no change since it last saw these exact pixels, and saw
//     them less than stillFrameMaxAge ago. The raw-frame preview sees them when it
//     polls and finds the same pixels. The video sees them at every moment its
//     stream runs without a new picture since the still was requested: screenrecord
//     encodes only what SurfaceFlinger composes into its virtual display, which it
//     does only when the screen changed, and sends nothing meanwhile (see
//     clipSource.streaming);
//   - a sidekick tree was read while those pixels were shown: after a frame with them
//     arrived and before they were seen again (digestStart/digestEnd against
//     firstSeen/lastSeen), so the tree belongs to the picture;
//   - the tree and screen state the freeze reads now are identical to those, node for
//     node (texts, bounds, states) and window for window (a dialog, the keyboard),
//     and the source still counts no change when they arrive (for the video: its
//     stream still runs).
//
// A change the source has not seen yet moves the tree on any navigation, scroll,
// typed text or toggle, and the freeze then takes a fresh frame. What the check cannot
// see is a change of pixels alone that the app's semantics do not describe (an
// animation, a picture loading with no new text) that the source has not seen yet:
// the raw-frame preview polls a still screen about once a second; the video's picture
// of a change arrives after the phone's encoder and the link, which can be longer than
// the freeze's own tree read (so the tree check stays: without it a tap just before
// the freeze is missed under video too). docs/performance-notes.md says so.

// stillFrameMaxAge bounds how long ago the preview must have seen the pixels: the
// preview polls a still screen every second at most, so an older sighting means it
// stopped (a video viewer took over, the phone stalled) and proves nothing now.
const stillFrameMaxAge = 2500 * time.Millisecond

// stillFrame is the newest raw frame the live preview took of one phone.
type stillFrame struct {
	serial string
	img    *image.NRGBA
	sum    uint32 // capture.PixelsCRC of img
	// changes is the preview's change count when it last saw these pixels.
	changes uint64
	// firstSeen is when the first frame with these pixels had arrived; lastSeen is
	// when the newest frame with them was requested.
	firstSeen, lastSeen time.Time
	// digest is the digest of a sidekick tree read between digestStart and
	// digestEnd while these pixels were shown; "" when none was read.
	digest                 string
	digestStart, digestEnd time.Time
	// digestTried: the background read was made (digestStillOnce), whatever came
	// of it, so a screen whose tree does not come from the sidekick is read once.
	digestTried bool
}

// stillFrames keeps the newest raw frame of the phone the preview shows.
type stillFrames struct {
	mu   sync.Mutex
	last *stillFrame
}

// note records a raw frame the preview took: requested at requested, arrived now,
// with the preview's change count after it was compared with the one before.
func (s *stillFrames) note(serial string, img *image.NRGBA, sum uint32, requested time.Time, changes uint64) {
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if f := s.last; f != nil && f.serial == serial && f.sum == sum {
		f.changes, f.lastSeen = changes, requested
		return
	}
	s.last = &stillFrame{serial: serial, img: img, sum: sum, changes: changes, firstSeen: now, lastSeen: requested}
}

// setDigest records the digest of a tree read between start and end, while the screen
// showed the pixels with checksum sum.
func (s *stillFrames) setDigest(serial string, sum uint32, digest string, start, end time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f := s.last; f != nil && f.serial == serial && f.sum == sum && !start.Before(f.firstSeen) {
		f.digest, f.digestStart, f.digestEnd = digest, start, end
	}
}

// vouch records a sighting at at of serial's newest frame by a source whose change
// count is still changes, the count it had when the frame was requested: the video
// (clipSource.streaming), which would have counted a picture had the screen changed.
func (s *stillFrames) vouch(serial string, changes uint64, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f := s.last; f != nil && f.serial == serial && f.changes == changes && at.After(f.lastSeen) {
		f.lastSeen = at
	}
}

// drop forgets the kept frame (its source stopped: nothing can vouch for it again).
func (s *stillFrames) drop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.last = nil
}

// usable returns serial's newest frame when the evidence says it is the screen now:
// see the comment at the top of this file. The frame is returned by value, so the
// caller keeps what it checked.
func (s *stillFrames) usable(serial string, changes uint64, now time.Time) (stillFrame, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.last
	if f == nil || f.serial != serial || f.changes != changes || now.Sub(f.lastSeen) > stillFrameMaxAge ||
		f.digest == "" || f.digestStart.Before(f.firstSeen) || f.digestEnd.After(f.lastSeen) {
		return stillFrame{}, false
	}
	return *f, true
}

// needsDigest returns serial's newest frame when it has no tree digest and none was
// tried for it, and marks it tried.
func (s *stillFrames) needsDigest(serial string) (stillFrame, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.last
	if f == nil || f.serial != serial || f.digest != "" || f.digestTried {
		return stillFrame{}, false
	}
	f.digestTried = true
	return *f, true
}

// screenDigest identifies what a capture read besides the pixels, exactly: every
// field of every node, in order, and the screen state (activity, windows, keyboard,
// rotation). The sidekick inspects the activity's window only (upstream's
// AndroidBridgeEnvironment keeps the last resumed activity, BridgeRuntime.kt:78-84,
// and inspects its root), so a dialog or the keyboard opening over it shows in the
// state, not in its tree. "" for no tree.
func screenDigest(snap *capture.Snapshot) string {
	if len(snap.Nodes) == 0 {
		return ""
	}
	b, err := json.Marshal(struct {
		Nodes    []capture.Node
		Activity string
		Display  capture.Display
	}{snap.Nodes, snap.State.Activity, snap.Display()})
	if err != nil {
		return ""
	}
	h := fnv.New64a()
	h.Write(b)
	return strconv.FormatUint(h.Sum64(), 16)
}

// stillSource is one place a freeze may find serial's picture: frames and the change
// count that vouches for them.
type stillSource struct {
	frames *stillFrames
	count  func() uint64
	// streaming, for the video, reports whether its stream still runs: only then
	// does an unchanged count see the screen (clipSource.streaming). nil for the raw-frame
	// preview, whose count sees the screen only when it polls.
	streaming func() bool
}

// usable is the source's frame of serial when the evidence says it is the screen now.
func (src stillSource) usable(serial string, now time.Time) (stillFrame, bool) {
	n := src.count()
	if src.streaming != nil {
		if !src.streaming() {
			return stillFrame{}, false
		}
		src.frames.vouch(serial, n, now)
	}
	return src.frames.usable(serial, n, now)
}

// unchanged reports whether the source still counts no change since f.
func (src stillSource) unchanged(f stillFrame) bool {
	return src.count() == f.changes && (src.streaming == nil || src.streaming())
}

// stillSources are where a freeze on serial may find its picture, best first: the
// still beside its running video, then the raw-frame preview's newest frame, unless a
// console watches the video (the raw-frame loop then takes no frames of it).
func (s *Service) stillSources(serial string) []stillSource {
	out := make([]stillSource, 0, 2)
	if c, _ := s.Video.clipSourceFor(serial, false); c != nil {
		out = append(out, stillSource{frames: &c.kept, count: c.changes.Load, streaming: c.streaming})
		if s.Video.Watched(serial) {
			return out
		}
	}
	return append(out, stillSource{frames: &s.Preview.stillFrames, count: s.Preview.changes.Load})
}

// keepForFreeze keeps serial's screen for a freeze: from the newest still frame and a
// fresh sidekick tree when the screen is still (see above), else with a whole capture
// (frame, tree and state at the same time).
func (s *Service) keepForFreeze(ctx context.Context, serial, id string) (*KeptScreen, error) {
	for _, src := range s.stillSources(serial) {
		f, ok := src.usable(serial, time.Now())
		if !ok || !s.HasSidekick(serial) {
			continue
		}
		// The PNG the console fetches is encoded while the tree is read; the freeze's
		// answer (nodes, fingerprints) does not wait for it, the image request does.
		png := encodeAhead(f.img)
		k, err := keepWith(ctx, s.Capturer, serial, id, s.conditions, f.img)
		if err == nil && k.Snapshot.TreeSource == capture.TreeFromSidekick &&
			screenDigest(k.Snapshot) == f.digest && src.unchanged(f) {
			if k.Snapshot.Frame == f.img { // not turned upright: the PNG is of its frame
				k.pngAhead = png
			}
			return k, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		break // the tree moved: the screen changed after the source last looked
	}
	start := time.Now()
	k, err := s.keep(ctx, serial, id)
	if err == nil {
		s.noteTree(serial, k.Snapshot, start, time.Now())
	}
	return k, err
}

// noteTree records snap's sidekick tree as the tree of its pixels, read between
// start and end, so the next freeze on the same still screen can use a kept frame
// with those pixels.
func (s *Service) noteTree(serial string, snap *capture.Snapshot, start, end time.Time) {
	if snap.TreeSource != capture.TreeFromSidekick || snap.Frame == nil {
		return
	}
	sum, digest := capture.PixelsCRC(snap.Frame), screenDigest(snap)
	for _, src := range s.stillSources(serial) {
		src.frames.setDigest(serial, sum, digest, start, end)
	}
}

// digestStillOnce reads, once per still screen of an app with the sidekick, its tree
// under the newest still frame, so the first freeze on that screen can already
// skip the frame. It costs the phone a sidekick call and a state read, no frame. It
// runs before warmOnce, so a sidekick it finds spares the phone a uiautomator dump.
func (s *Service) digestStillOnce(ctx context.Context) error {
	p := s.Preview
	dev, ok := s.watchedDevice()
	if !ok {
		return nil
	}
	if _, still := p.stillSince(); still < warmStillFor {
		return nil
	}
	var f stillFrame
	for _, src := range s.stillSources(dev.Serial) {
		if f, ok = src.frames.needsDigest(dev.Serial); ok {
			break
		}
	}
	if !ok {
		return nil
	}
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if sk, _ := s.Capturer.sidekicks.forDevice(cctx, dev.Serial); sk == nil {
		return nil // no sidekick: the warm tree (warm.go) serves this app
	}
	start := time.Now()
	snap, err := s.Capturer.capture(cctx, dev.Serial, f.img)
	if err != nil {
		return err
	}
	s.noteTree(dev.Serial, snap, start, time.Now())
	return nil
}

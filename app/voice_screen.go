package app

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/jpeg"
	"strconv"
	"sync"
	"time"

	"fixthis/app/errcode"
	"fixthis/app/voice"
	"fixthis/capture"

	"github.com/disintegration/imaging"
)

// voiceTrees keeps a UI tree for the screen a voice session's phone shows, so a
// Select-mode click resolves to a node without a capture on the click's path. While
// a session is live and the preview is not frozen, a screen that stood still for
// stillFor after a change gets one capture (frame + tree) in the background. The tree
// is current while the preview has counted no change since (raw frames and video
// pictures both count), so it is never the tree of another screen.
type voiceTrees struct {
	mu      sync.Mutex
	snap    *capture.Snapshot
	ser     string
	changes uint64 // the preview's change count the tree belongs to
}

const (
	treeCheckEvery = 250 * time.Millisecond
	stillFor       = 300 * time.Millisecond
)

func (v *voiceTrees) get() (*capture.Snapshot, string, uint64) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.snap, v.ser, v.changes
}

func (v *voiceTrees) set(serial string, snap *capture.Snapshot, changes uint64) {
	v.mu.Lock()
	v.snap, v.ser, v.changes = snap, serial, changes
	v.mu.Unlock()
}

// keepVoiceTree runs until ctx ends, capturing a tree when a live session's screen
// changed and then stood still. Without a sidekick it waits for the device's warm
// tree, so the phone never runs two uiautomator dumps at once.
func (a *App) keepVoiceTree(ctx context.Context) {
	tick := time.NewTicker(treeCheckEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			a.voice.StopAll()
			return
		case <-tick.C:
		}
		iv := a.voice.Active()
		if iv == nil || a.device.Preview.Frozen() {
			continue
		}
		serial := iv.Doc().Serial
		changes, still := a.device.Preview.Stillness()
		if still < stillFor {
			continue
		}
		if snap, ser, c := a.voiceTree.get(); snap != nil && ser == serial && c == changes {
			continue
		}
		if !a.device.HasSidekick(serial) && !a.device.WarmReady(serial) {
			continue
		}
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		snap, err := a.device.Capturer.Capture(cctx, serial)
		cancel()
		if err != nil {
			a.log.Debug("voice: background tree capture failed", "serial", serial, "err", err)
			continue
		}
		if now, _ := a.device.Preview.Stillness(); now != changes || snap.Tree == nil {
			continue // the screen moved during the capture
		}
		prev, prevSerial, _ := a.voiceTree.get()
		a.voiceTree.set(serial, snap, changes)
		if prev != nil && prevSerial == serial && prev.State.Activity != "" && snap.State.Activity != "" &&
			prev.State.Activity != snap.State.Activity {
			iv.Checkpoint("activity") // smart mode hands off when the app moved on
		}
	}
}

// currentTree is the kept tree of the screen serial shows now: the preview has seen
// no change since it was captured, or the change was small (a clock, a cursor) and
// the newest live frame, the one that showed it, still has the tree's perceptual
// hash. nil otherwise.
func (a *App) currentTree(serial string) *capture.Snapshot {
	snap, ser, c := a.voiceTree.get()
	if snap == nil || ser != serial {
		return nil
	}
	changes, still := a.device.Preview.Stillness()
	if c == changes {
		return snap
	}
	live, ok := a.device.Preview.LatestFrame(serial)
	// The newest raw frame shows the last change only when it was taken about then;
	// while the video stream carries the changes, raw frames are older and never count.
	if ok && time.Since(live.CapturedAt) < still+liveFrameSlack && sameScreen(snap, live.Perceptual) {
		return snap
	}
	return nil
}

// liveFrameSlack is how long before the noted change the frame showing it may have
// been taken (the capture's own duration on a slow phone).
const liveFrameSlack = time.Second

// maxTreeDistance is how many of the perceptual hash's 64 bits may differ for a tree
// to count as the tree of the frame shown.
const maxTreeDistance = 6

// sameScreen reports whether snap was taken of the screen with perceptual hash p.
func sameScreen(snap *capture.Snapshot, p uint64) bool {
	h, err := strconv.ParseUint(snap.Fingerprint.Perceptual, 16, 64)
	return err == nil && capture.HammingDistance(h, p) <= maxTreeDistance
}

// VoiceAnchorRequest is the body of POST /api/voice/sessions/{id}/anchors, in device
// pixels.
type VoiceAnchorRequest struct {
	Kind     voice.AnchorKind `json:"kind"`
	Mode     string           `json:"mode"`
	Serial   string           `json:"serial"`
	FrozenID string           `json:"frozenId"`
	NodeUID  string           `json:"nodeUid"`
	X        *int             `json:"x"`
	Y        *int             `json:"y"`
	Bounds   *capture.Bounds  `json:"bounds"`
	Note     string           `json:"note"`
}

// VoiceAnchor is the answer of POST /api/voice/sessions/{id}/anchors.
type VoiceAnchor struct {
	AnchorID string `json:"anchorId"`
	// Resolved names the node the pointing resolved to ("" when none).
	NodeUID string `json:"nodeUid,omitempty"`
}

// voicePointing resolves an anchor request against the frame and tree the console
// showed: the named freeze in Annotate mode, the current screen's tree in Select.
func (a *App) voicePointing(req VoiceAnchorRequest, serial string) (voice.Pointing, error) {
	p := voice.Pointing{Kind: req.Kind, Mode: req.Mode, Serial: serial, X: req.X, Y: req.Y, Note: req.Note}
	var snap *capture.Snapshot
	switch req.Mode {
	case "annotate":
		if req.FrozenID == "" {
			return p, invalidInput("frozenId is required in annotate mode")
		}
		fr, ok := a.device.Frozen(req.FrozenID)
		if !ok {
			return p, errcode.New(errcode.PreviewNotFound, "frozen frame %s is gone; freeze again", req.FrozenID)
		}
		snap, p.FrameID, p.Frame = fr.Snapshot, fr.ID, fr.PNG
	case "select":
		snap = a.currentTree(serial)
		if live, ok := a.device.Preview.LatestFrame(serial); ok {
			p.FrameID, p.Frame = live.ID, live.JPEG
		}
	default:
		return p, invalidInput("mode must be select or annotate")
	}
	if snap != nil {
		p.Activity, p.Snapshot = snap.State.Activity, snap
	}
	var tree *capture.Tree
	if snap != nil {
		tree = snap.Tree
	}
	switch req.Kind {
	case voice.AnchorClick:
		if tree == nil {
			break
		}
		if req.NodeUID != "" {
			n, ok := tree.ByUID(req.NodeUID)
			if !ok {
				return p, errcode.New(errcode.NodeNotFound, "node %s is not on frame %s", req.NodeUID, p.FrameID)
			}
			p.Node = &n
		} else if req.X != nil && req.Y != nil {
			if hit, ok := tree.HitTest(*req.X, *req.Y); ok {
				p.Node = &hit.Node
			}
		}
	case voice.AnchorArea:
		p.Bounds = req.Bounds
		if tree != nil {
			p.Node = tree.HitArea(*req.Bounds).Node
		}
	}
	if p.Node != nil && p.Bounds == nil {
		b := p.Node.Bounds
		p.Bounds = &b
	}
	return p, nil
}

// voiceScreen gives look_at_screen the phone's screen: the frozen frame while the
// console shows one, else a new grab, else a live frame under 500 ms old.
type voiceScreen struct{ a *App }

func (s voiceScreen) Look(ctx context.Context, serial string) (voice.Frame, error) {
	a := s.a
	activity := ""
	if snap := a.currentTree(serial); snap != nil {
		activity = snap.State.Activity
	}
	if a.device.Preview.Frozen() {
		if fr, ok := a.device.LatestFrozen(serial); ok {
			return encodeLook(fr.Snapshot.Frame, fr.Snapshot.State.Activity, fr.CapturedAt, true)
		}
	}
	start := time.Now()
	img, err := capture.CaptureFrame(ctx, a.adb.Device(serial), "")
	if err == nil {
		return encodeLook(img, activity, start, true)
	}
	if live, ok := a.device.Preview.LatestFrame(serial); ok && time.Since(live.CapturedAt) < 500*time.Millisecond {
		return voice.Frame{JPEG: live.JPEG, Width: live.Width, Height: live.Height, Activity: activity,
			CapturedAt: live.CapturedAt, Fresh: false}, nil
	}
	return voice.Frame{}, errors.New("the phone gave no frame: " + err.Error())
}

// encodeLook scales a frame to at most voice.MaxFrameWidth wide and encodes a JPEG.
func encodeLook(img image.Image, activity string, at time.Time, fresh bool) (voice.Frame, error) {
	if img == nil {
		return voice.Frame{}, errors.New("no frame")
	}
	if img.Bounds().Dx() > voice.MaxFrameWidth {
		img = imaging.Resize(img, voice.MaxFrameWidth, 0, imaging.Linear)
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 80}); err != nil {
		return voice.Frame{}, err
	}
	b := img.Bounds()
	return voice.Frame{JPEG: buf.Bytes(), Width: b.Dx(), Height: b.Dy(), Activity: activity, CapturedAt: at, Fresh: fresh}, nil
}

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
// a session is live and the preview is not frozen, a screen that stayed still for
// stillFor after a change gets one capture (frame + tree) in the background.
type voiceTrees struct {
	mu   sync.Mutex
	snap *capture.Snapshot
	at   time.Time // when snap was captured
	ser  string
}

const (
	treeCheckEvery = 250 * time.Millisecond
	stillFor       = 300 * time.Millisecond
	// maxTreeDistance is how many of the perceptual hash's 64 bits may differ for a
	// tree to count as the tree of the frame shown.
	maxTreeDistance = 10
)

func (v *voiceTrees) get() (*capture.Snapshot, string, time.Time) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.snap, v.ser, v.at
}

func (v *voiceTrees) set(serial string, snap *capture.Snapshot) {
	v.mu.Lock()
	v.snap, v.ser, v.at = snap, serial, time.Now()
	v.mu.Unlock()
}

// keepVoiceTree runs until ctx ends, capturing a tree when a live session's screen
// changed and then stayed still.
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
		live, ok := a.device.Preview.LatestFrame(serial)
		if !ok || time.Since(live.CapturedAt) < stillFor {
			continue
		}
		if snap, ser, _ := a.voiceTree.get(); ser == serial && snap != nil && sameScreen(snap, live.Perceptual) {
			continue
		}
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		snap, err := a.device.Capturer.Capture(cctx, serial)
		cancel()
		if err != nil {
			a.log.Debug("voice: background tree capture failed", "serial", serial, "err", err)
			continue
		}
		a.voiceTree.set(serial, snap)
	}
}

// sameScreen reports whether snap was taken of the screen with perceptual hash p.
func sameScreen(snap *capture.Snapshot, p uint64) bool {
	h, err := strconv.ParseUint(snap.Fingerprint.Perceptual, 16, 64)
	return err == nil && capture.HammingDistance(h, p) <= maxTreeDistance
}

// currentTree is the tree for the screen serial shows now: the newest freeze or the
// kept background capture, when its fingerprint matches the newest live frame.
func (a *App) currentTree(serial string) *capture.Snapshot {
	live, hasLive := a.device.Preview.LatestFrame(serial)
	var candidates []*capture.Snapshot
	if fr, ok := a.device.LatestFrozen(serial); ok {
		candidates = append(candidates, fr.Snapshot)
	}
	if snap, ser, at := a.voiceTree.get(); snap != nil && ser == serial {
		// Without a live frame to compare, only a capture of the last moments counts.
		if hasLive || time.Since(at) < 2*time.Second {
			candidates = append(candidates, snap)
		}
	}
	for _, snap := range candidates {
		if snap.Tree == nil {
			continue
		}
		if !hasLive || sameScreen(snap, live.Perceptual) {
			return snap
		}
	}
	return nil
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
		p.Activity = snap.State.Activity
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

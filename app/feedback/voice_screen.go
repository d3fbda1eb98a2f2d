package feedback

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"math"
	"time"

	"fixthis/app/device"
	"fixthis/app/errcode"
	"fixthis/app/voice"
	"fixthis/capture"

	"github.com/disintegration/imaging"
)

// PointRequest is a click, drag or screen note the console announces to a voice
// session, in device pixels.
type PointRequest struct {
	Kind     voice.AnchorKind
	Mode     string // select (the live screen) or annotate (a frozen frame)
	Serial   string
	FrozenID string
	NodeUID  string
	X, Y     *int
	Bounds   *capture.Bounds
	Note     string
}

// Point resolves an anchor against the frame and tree the console showed: the named
// freeze in Annotate mode, the phone's current screen in Select.
func (u *VoiceUnits) Point(req PointRequest, serial string) (voice.Pointing, error) {
	s := u.s
	p := voice.Pointing{Kind: req.Kind, Mode: req.Mode, Serial: serial, X: req.X, Y: req.Y, Note: req.Note}
	var kept *device.KeptScreen
	var width, height int // the screen's size in device pixels, 0 when none is known
	switch req.Mode {
	case "annotate":
		if req.FrozenID == "" {
			return p, errcode.New(errcode.InvalidInput, "frozenId is required in annotate mode")
		}
		fr, ok := s.device.Frozen(req.FrozenID)
		if !ok {
			return p, errcode.New(errcode.PreviewNotFound, "frozen frame %s is gone; freeze again", errcode.Quote(req.FrozenID))
		}
		png, err := fr.PNG()
		if err != nil {
			return p, err
		}
		kept, p.FrameID, p.Frame = fr, fr.ID, png
	case "select":
		kept = s.device.CurrentScreen(serial)
		if live, ok := s.device.Preview.LatestFrame(serial); ok {
			p.FrameID, p.Frame = live.ID, live.JPEG
			width, height = live.Width, live.Height
		}
	default:
		return p, errcode.New(errcode.InvalidInput, "mode must be select or annotate")
	}
	var tree *capture.Tree
	if kept != nil {
		p.Activity, p.Snapshot, tree = kept.Snapshot.State.Activity, kept.Snapshot, kept.Snapshot.Tree
		width, height = kept.Snapshot.Width, kept.Snapshot.Height
	}
	if err := onScreen(req, width, height); err != nil {
		return p, err
	}
	if kept != nil {
		u.pointed.add(kept)
	}
	switch req.Kind {
	case voice.AnchorClick:
		if tree == nil {
			break
		}
		if req.NodeUID != "" {
			n, ok := tree.ByUID(req.NodeUID)
			if !ok {
				return p, errcode.New(errcode.NodeNotFound, "node %s is not on frame %s", errcode.Quote(req.NodeUID), p.FrameID)
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
	if p.Mode == "select" && kept != nil {
		// A unit on this anchor saves the kept screen: encode its image now, off the
		// path from the interviewer's call to the stored item.
		go func() { _, _ = kept.PNG() }()
	}
	return p, nil
}

// onScreen refuses a point or area that is not on the width×height screen it was
// made on: the interviewer would be told of a place the user cannot have pointed at.
// With no screen known (0×0) only negative coordinates are refused.
func onScreen(req PointRequest, width, height int) error {
	name := fmt.Sprintf("the %d×%d screen", width, height)
	if width <= 0 || height <= 0 {
		width, height, name = math.MaxInt32, math.MaxInt32, "the screen"
	}
	screen := capture.Bounds{Right: width, Bottom: height}
	if req.Kind == voice.AnchorClick && req.X != nil && req.Y != nil && !screen.Contains(*req.X, *req.Y) {
		return errcode.New(errcode.OutOfRange, "the point (%d, %d) is outside %s", *req.X, *req.Y, name)
	}
	if req.Kind == voice.AnchorArea && req.Bounds != nil && req.Bounds.Intersect(screen) != *req.Bounds {
		b := *req.Bounds
		return errcode.New(errcode.OutOfRange, "the area [%d,%d][%d,%d] is not within %s", b.Left, b.Top, b.Right, b.Bottom, name)
	}
	return nil
}

// VoiceScreen gives look_at_screen the phone's screen: the frozen frame while the
// console shows one, else the phone's kept screen (the current one, or a new keep),
// else a live frame under 500 ms old. It implements voice.Screen.
type VoiceScreen struct{ s *Service }

// VoiceScreen returns look_at_screen's side of s.
func (s *Service) VoiceScreen() VoiceScreen { return VoiceScreen{s: s} }

// Look returns the frame on screen now for serial.
func (v VoiceScreen) Look(ctx context.Context, serial string) (voice.Frame, error) {
	s := v.s
	if s.device.Preview.Frozen() {
		if fr, ok := s.device.LatestFrozen(serial); ok {
			return EncodeLook(fr.Snapshot.Frame, fr.Snapshot.State.Activity, fr.CapturedAt, true)
		}
	}
	k, cached, err := s.device.ScreenNow(ctx, serial)
	if err == nil {
		at := k.CapturedAt
		if cached {
			// The preview has counted no change since the capture: it is the
			// screen as it is now, however long ago it was taken.
			at = time.Now()
		}
		return EncodeLook(k.Snapshot.Frame, k.Snapshot.State.Activity, at, true)
	}
	if live, ok := s.device.Preview.LatestFrame(serial); ok && time.Since(live.CapturedAt) < 500*time.Millisecond {
		return voice.Frame{JPEG: live.JPEG, Width: live.Width, Height: live.Height,
			CapturedAt: live.CapturedAt, Fresh: false}, nil
	}
	return voice.Frame{}, errors.New("the phone gave no frame: " + err.Error())
}

// EncodeLook scales a frame to at most voice.MaxFrameWidth wide and encodes a JPEG.
func EncodeLook(img image.Image, activity string, at time.Time, fresh bool) (voice.Frame, error) {
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

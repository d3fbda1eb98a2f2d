package device

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"sync/atomic"

	"fixthis/capture"
)

// keptFrozenFrames is how many freezes a save can still find its frame among.
const keptFrozenFrames = 4

// frozenIDs numbers freezes within this process; frozenRun makes the ids unique
// across restarts ("f3a9c…-1", "f3a9c…-2", …), so a draft recovered after a
// restart can never name a new frame that happens to reuse its number.
var (
	frozenIDs atomic.Uint64
	frozenRun = func() string {
		var b [6]byte
		if _, err := rand.Read(b[:]); err != nil {
			panic("crypto/rand failed: " + err.Error())
		}
		return hex.EncodeToString(b[:])
	}()
)

// Freeze pauses the live preview and keeps serial's screen at full resolution: the
// frame, the UI tree and the display conditions, read together, and its PNG (on a
// still screen the PNG may still be encoding: the image request waits for it). On
// failure the preview resumes.
func (s *Service) Freeze(ctx context.Context, serial string) (*KeptScreen, error) {
	s.Preview.SetFrozen(true)
	k, err := s.keepForFreeze(ctx, serial, "f"+frozenRun+"-"+strconv.FormatUint(frozenIDs.Add(1), 10))
	if err == nil && k.pngAhead == nil {
		_, err = k.PNG() // the console shows it at once
	}
	if err != nil {
		s.Preview.SetFrozen(false)
		return nil, err
	}
	s.frozen.Add(k)
	return k, nil
}

// Frozen finds a kept freeze by id.
func (s *Service) Frozen(id string) (*KeptScreen, bool) { return s.frozen.Get(id) }

// Resume leaves the frozen state; the live loop announces the next frame.
func (s *Service) Resume() { s.Preview.SetFrozen(false) }

// FreezeResult is the body of POST /api/preview/freeze.
type FreezeResult struct {
	FrozenID   string         `json:"frozenId"`
	Serial     string         `json:"serial"`
	ImageURL   string         `json:"imageUrl"`
	Screen     FrozenScreen   `json:"screen"`
	Nodes      []capture.Node `json:"nodes"`
	TreeSource string         `json:"treeSource"`
	TimingsMs  FreezeTimings  `json:"timingsMs"`
}

// FreezeTimings says where a freeze spent its time, in milliseconds.
type FreezeTimings struct {
	Frame int64 `json:"frame"`
	Tree  int64 `json:"tree"`
	Total int64 `json:"total"`
}

// FrozenScreen describes the frozen screen.
type FrozenScreen struct {
	Fingerprint  string             `json:"fingerprint"`
	Fingerprints ScreenFingerprints `json:"fingerprints"`
	Width        int                `json:"width"`
	Height       int                `json:"height"`
	Package      string             `json:"package"`
	Activity     string             `json:"activity"`
	Density      int                `json:"density"`
	// Orientation, rotation and the window list: the dialog, the keyboard, FLAG_SECURE.
	capture.Display
}

// ScreenFingerprints are the three parts of a screen's fingerprint.
type ScreenFingerprints struct {
	Structural string `json:"structural"`
	Perceptual string `json:"perceptual"`
	Structure  string `json:"structure"`
}

// Result describes fr for the console.
func (fr *KeptScreen) Result() FreezeResult {
	s := fr.Snapshot
	nodes := s.Nodes
	if nodes == nil {
		nodes = []capture.Node{}
	}
	return FreezeResult{
		FrozenID: fr.ID,
		Serial:   fr.Serial,
		ImageURL: "/api/preview/" + fr.ID + "/image",
		Screen: FrozenScreen{
			Fingerprint: s.Fingerprint.String(),
			Fingerprints: ScreenFingerprints{
				Structural: s.Fingerprint.Structural,
				Perceptual: s.Fingerprint.Perceptual,
				Structure:  s.Fingerprint.Structure,
			},
			Width:    s.Width,
			Height:   s.Height,
			Package:  s.State.Package,
			Activity: s.State.Activity,
			Density:  s.State.Density,
			Display:  s.Display(),
		},
		Nodes:      nodes,
		TreeSource: s.TreeSource,
		TimingsMs: FreezeTimings{
			Frame: s.Timings.Frame.Milliseconds(),
			Tree:  s.Timings.Tree.Milliseconds(),
			Total: s.Timings.Total.Milliseconds(),
		},
	}
}

package capture

import (
	"context"
	"fmt"
	"hash/crc32"
	"image"
	"sync"
	"time"
)

// Options of one Capture.
type Options struct {
	// DisplayID selects the display for screencap; "" is the default display.
	DisplayID string
	// Sidekick, when set, is asked for the tree first (true Compose semantics);
	// uiautomator is the fallback. The caller owns it and keeps it for the session.
	Sidekick *SidekickClient
	// SkipTree captures only the frame and the state (live preview checks).
	SkipTree bool
	// State, when set, is the screen state the caller has just read; Capture uses it
	// instead of reading it again.
	State *ScreenState
	// Warm, when set, is a tree dumped in the background while the screen was still.
	// Capture takes the frame first and uses the warm tree only when the frame's pixels
	// are exactly those the tree was dumped under; otherwise it dumps as usual. Not
	// used with a sidekick, which answers faster than a frame is taken.
	Warm *WarmTree
	// Frame, when set, is a frame of the current screen taken moments ago (the live
	// preview's, on a screen known still): Capture reads only the tree and the state
	// and uses it as the picture. The caller vouches that it is the screen now.
	Frame *image.NRGBA
	// FrameTaken, when set, waits for a frame the caller began to take before the
	// capture (while it connected the sidekick); Capture waits for it beside the
	// tree and the state instead of taking one.
	FrameTaken func() (*image.NRGBA, error)
}

// WarmTree is a UI tree and the pixels of the frame it belongs to.
type WarmTree struct {
	PixelsCRC uint32
	Hierarchy *Hierarchy
}

// PixelsCRC is the exact-pixel checksum of a frame (CRC-32C, about 1 ms for
// 1080x2400): equal sums mean the same picture, where the perceptual hash is too
// coarse to notice a typed character.
func PixelsCRC(img *image.NRGBA) uint32 { return crc32.Checksum(img.Pix, crcTable) }

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// Tree sources reported in Snapshot.TreeSource.
const (
	TreeFromUIAutomator = "uiautomator"
	TreeFromSidekick    = "sidekick"
)

// Snapshot is one capture of the screen: the frame, the UI tree under it, the state
// and the fingerprint. A tree that could not be read leaves Nodes nil and TreeErr
// set: the frame alone still serves area annotations.
type Snapshot struct {
	Frame      *image.NRGBA
	Width      int
	Height     int
	Nodes      []Node
	Tree       *Tree
	TreeSource string
	TreeErr    error
	// SidekickErr says why the sidekick's tree was not used (nil when it was, or when
	// there is no sidekick); it wraps ErrSidekickTreeUnused when the sidekick answered.
	SidekickErr error
	// TreeWarm: the tree was dumped before the capture, under these exact pixels.
	TreeWarm    bool
	Rotation    int // uiautomator's hierarchy rotation, when the tree came from it
	State       ScreenState
	Fingerprint Fingerprint
	Timings     Timings
}

// Capture takes the frame, the UI tree and the screen state at the same time (the
// tree is the slow part on real phones, often a second or more) and derives the
// fingerprint. It fails only when no frame could be taken.
func Capture(ctx context.Context, dev Device, opts Options) (*Snapshot, error) {
	start := time.Now()
	var (
		wg       sync.WaitGroup
		frame    *image.NRGBA
		frameErr error
		hier     *Hierarchy
		source   string
		treeErr  error
		state    ScreenState
		stateErr error
		snap     Snapshot
	)
	if opts.Frame != nil {
		frame = opts.Frame
	} else {
		wg.Go(func() {
			t := time.Now()
			if opts.FrameTaken != nil {
				frame, frameErr = opts.FrameTaken()
			} else {
				frame, frameErr = CaptureFrame(ctx, dev, opts.DisplayID)
			}
			snap.Timings.Frame = time.Since(t)
		})
	}
	warm := opts.Warm
	if opts.Sidekick != nil || warm == nil || warm.Hierarchy == nil {
		warm = nil
	}
	var (
		insp  *SidekickInspection
		skErr error
	)
	if !opts.SkipTree && warm == nil {
		wg.Go(func() {
			t := time.Now()
			if opts.Sidekick != nil {
				insp, skErr = opts.Sidekick.InspectCurrentScreen(ctx)
			} else {
				hier, source, treeErr = captureTree(ctx, dev, nil)
			}
			snap.Timings.Tree = time.Since(t)
		})
	}
	if opts.State != nil {
		state = *opts.State
	} else {
		wg.Go(func() {
			t := time.Now()
			state, stateErr = ReadScreenState(ctx, dev)
			snap.Timings.State = time.Since(t)
		})
	}
	wg.Wait()
	if frameErr != nil {
		return nil, fmt.Errorf("capture: %w", frameErr)
	}
	_ = stateErr // a missing state leaves the structural fingerprint's fields unknown
	if opts.Sidekick != nil && !opts.SkipTree {
		// The sidekick's answer is checked against the state read at the same time;
		// when it does not describe what is on screen, uiautomator is asked after all.
		t := time.Now()
		if stateErr != nil {
			state = ScreenState{}
		}
		hier, source, treeErr, snap.SidekickErr = sidekickTree(ctx, dev, opts.Sidekick, insp, skErr, state)
		snap.Timings.Tree += time.Since(t)
	}
	if warm != nil {
		t := time.Now()
		if PixelsCRC(frame) == warm.PixelsCRC {
			hier, source, snap.TreeWarm = warm.Hierarchy, TreeFromUIAutomator, true
		} else {
			hier, source, treeErr = captureTree(ctx, dev, nil)
		}
		snap.Timings.Tree = time.Since(t)
	}

	if hier != nil {
		snap.Nodes, snap.Tree, snap.Rotation = hier.Nodes, NewTree(hier.Nodes), hier.Rotation
		frame = orientToTree(frame, snap.Tree.Screen(), hier.Rotation, state)
	}
	snap.Frame, snap.TreeSource, snap.TreeErr = frame, source, treeErr
	snap.Width, snap.Height = frame.Rect.Dx(), frame.Rect.Dy()
	if snap.Width > snap.Height {
		state.Orientation = "LANDSCAPE"
	} else {
		state.Orientation = "PORTRAIT"
	}
	snap.State = state
	snap.Fingerprint = Fingerprint{
		Structural: StructuralHash(ScreenInfo{
			Activity: state.Activity, Orientation: state.Orientation,
			Width: snap.Width, Height: snap.Height, Density: state.Density,
			WindowMode: state.WindowMode, SystemUIKind: state.SystemUIKind,
		}),
		Perceptual: FormatHash(PerceptualHash(frame)),
		Structure:  StructureHash(snap.Nodes),
	}
	snap.Timings.Total = time.Since(start)
	return &snap, nil
}

// captureTree asks the sidekick first when there is one, then uiautomator.
func captureTree(ctx context.Context, dev Device, sk *SidekickClient) (*Hierarchy, string, error) {
	if sk != nil {
		insp, err := sk.InspectCurrentScreen(ctx)
		h, src, err, _ := sidekickTree(ctx, dev, sk, insp, err, ScreenState{})
		return h, src, err
	}
	return dumpTree(ctx, dev, nil)
}

// sidekickTree uses the sidekick's answer when it describes the screen in front (see
// SidekickNodes), else dumps with uiautomator.
// The last result says why the sidekick's tree was not used.
func sidekickTree(ctx context.Context, dev Device, sk *SidekickClient, insp *SidekickInspection, err error, state ScreenState) (*Hierarchy, string, error, error) {
	if err == nil {
		var nodes []Node
		if nodes, err = SidekickNodes(insp, state, sk.Session.PackageName); err == nil {
			areas, hybrid := composeAreas(insp, state, sk.Session.PackageName)
			if !hybrid {
				return &Hierarchy{Nodes: nodes}, TreeFromSidekick, nil, nil
			}
			// Views share the screen: uiautomator reads them, the sidekick the Compose
			// parts. If uiautomator fails, the Compose parts alone still serve.
			h, derr := DumpTree(ctx, dev)
			if derr != nil {
				return &Hierarchy{Nodes: nodes}, TreeFromSidekick, nil, fmt.Errorf("%w in part: hybrid screen, its View parts unread: %w", ErrSidekickTreeUnused, derr)
			}
			return &Hierarchy{Nodes: combineHybrid(nodes, areas, h.Nodes), Rotation: h.Rotation}, TreeFromHybrid, nil, nil
		}
	}
	h, src, derr := dumpTree(ctx, dev, err)
	return h, src, derr, err
}

func dumpTree(ctx context.Context, dev Device, skErr error) (*Hierarchy, string, error) {
	h, err := DumpTree(ctx, dev)
	if err != nil {
		if skErr != nil {
			err = fmt.Errorf("%v; %w", skErr, err)
		}
		return nil, "", err
	}
	return h, TreeFromUIAutomator, nil
}

// orientToTree turns a frame that came in the panel's natural orientation (some
// devices' screencap ignores the rotation) so its size matches the tree, whose
// bounds are always in the orientation the user sees.
func orientToTree(frame *image.NRGBA, screen Bounds, rotation int, state ScreenState) *image.NRGBA {
	w, ht := frame.Rect.Dx(), frame.Rect.Dy()
	if screen.Empty() || w == ht || (screen.Width() > screen.Height()) == (w > ht) {
		return frame
	}
	if screen.Width() != ht || screen.Height() != w {
		return frame // not a plain swap (a window smaller than the screen): leave it
	}
	rot := rotation
	if rot == 0 {
		rot = state.Rotation
	}
	if rot%2 == 0 {
		rot = 1
	}
	return Upright(frame, rot)
}

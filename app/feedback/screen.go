package feedback

import (
	"bytes"
	"context"
	"encoding/json"
	"time"

	"fixthis/app/device"
	"fixthis/app/store"
	"fixthis/capture"
)

// Turning a kept screen into a saved one (screenshot, tree, conditions, crops), and
// the check that the phone still shows what was frozen.

// checkFingerprint compares the frozen screen with a lightweight capture of the phone
// now (one frame and the foreground activity, no UI dump): a different activity or
// orientation, or a frame that no longer looks the same, means the user is about to
// save notes about a screen the phone has left.
func (s *Service) checkFingerprint(ctx context.Context, fr *device.KeptScreen) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	snap, err := s.device.Capturer.Glance(ctx, fr.Serial)
	if err != nil {
		// The phone is gone or busy: the frozen screen is still valid, save it.
		s.log.Warn("fingerprint check skipped", "serial", fr.Serial, "err", err)
		return nil
	}
	// Without a fresh UI dump only the structural and perceptual parts compare.
	then := fr.Snapshot.Fingerprint
	then.Structure = ""
	now := snap.Fingerprint
	now.Structure = ""
	if then.Matches(now) {
		return nil
	}
	current := now.Structural + ":" + now.Perceptual
	// The frame's own fingerprint, not the client's copy: an error never carries
	// back what the client sent.
	return &store.FingerprintMismatchError{FrozenFingerprint: fr.Snapshot.Fingerprint.String(), CurrentFingerprint: current}
}

// screenInputOf is the saved screen of a kept one: its image, tree, state, the
// display conditions read when it was captured and the phone it was captured on.
func screenInputOf(k *device.KeptScreen) (store.ScreenInput, error) {
	s := k.Snapshot
	png, err := k.PNG()
	if err != nil {
		return store.ScreenInput{}, err
	}
	nodes, _ := json.Marshal(s.Nodes)
	in := store.ScreenInput{
		Fingerprint: s.Fingerprint.String(),
		Package:     s.State.Package,
		Activity:    s.State.Activity,
		Width:       s.Width,
		Height:      s.Height,
		ImagePNG:    png,
		NodesJSON:   nodes,
		Display:     displayOf(s.State),
		Serial:      k.Serial,
	}
	in.Display.Conditions = k.Conditions
	return in, nil
}

// displayOf keeps what the prompt needs to know about the windows of a kept screen.
func displayOf(st capture.ScreenState) store.ScreenDisplay {
	d := store.ScreenDisplay{Rotation: st.Rotation, Secure: st.Secure}
	if w := st.Dialog(); w != nil {
		d.Dialog = w.Title
	}
	if k := st.Keyboard(); k != nil {
		d.Keyboard = &store.Bounds{Left: k.Left, Top: k.Top, Right: k.Right, Bottom: k.Bottom}
	}
	return d
}

// withCrops gives each item on fr the crop of its target.
func withCrops(fr *device.KeptScreen, items []store.BatchItem) []store.BatchItem {
	out := append([]store.BatchItem(nil), items...)
	for i := range out {
		out[i].CropPNG = cropFor(fr, out[i].Target)
	}
	return out
}

// cropFor renders the crop of a node or area target (none for screen notes, and
// none of a FLAG_SECURE screen, whose pixels are black).
func cropFor(fr *device.KeptScreen, t store.Target) []byte {
	if t.Bounds == nil || t.Type == store.TargetScreen || fr.Snapshot.State.Secure {
		return nil
	}
	var buf bytes.Buffer
	b := capture.Bounds{Left: t.Bounds.Left, Top: t.Bounds.Top, Right: t.Bounds.Right, Bottom: t.Bounds.Bottom}
	if _, err := capture.EncodeCropPNG(&buf, fr.Snapshot.Frame, b, 24); err != nil {
		return nil
	}
	return buf.Bytes()
}

package feedback

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	_ "image/jpeg" // live preview frames
	_ "image/png"  // frozen frames
	"sync"

	"fixthis/app/device"
	"fixthis/app/errcode"
	"fixthis/app/store"
	"fixthis/app/voice"
	"fixthis/capture"
)

// VoiceUnits is the voice port: it turns the interviewer's unit tools into items
// through the same save, item edits, withdrawals, answers and handoff the console
// uses. It implements voice.Units.
type VoiceUnits struct {
	s       *Service
	pointed pointedScreens
}

// VoiceUnits returns the voice port of s.
func (s *Service) VoiceUnits() *VoiceUnits { return &VoiceUnits{s: s} }

// Record saves a unit as a draft item (draft key: voice session id, unit id) on the
// screen of its first anchor, or as a screen note on the current screen. The item
// is committed when Record returns.
func (u *VoiceUnits) Record(ctx context.Context, rec voice.UnitRecord) (voice.UnitItem, error) {
	s := u.s
	if it, err := s.store.VoiceItem(ctx, rec.SessionID, rec.VoiceSessionID, rec.UnitID); err == nil {
		return unitItem(it), nil // a replayed call: the item the first one made
	}
	sc, target, err := u.unitScreen(rec)
	if err != nil {
		return voice.UnitItem{}, err
	}
	ids := make([]string, 0, len(rec.Anchors))
	for _, an := range rec.Anchors {
		ids = append(ids, an.ID)
	}
	bi := store.BatchItem{DraftItemID: rec.UnitID, Target: target, Comment: rec.Statement,
		Voice: &store.VoiceOrigin{VoiceSessionID: rec.VoiceSessionID, UnitID: rec.UnitID, Excerpt: rec.Excerpt,
			SpanStartMs: rec.SpanStartMs, SpanEndMs: rec.SpanEndMs, Anchors: ids}}
	if sc.kept != nil {
		bi.CropPNG = cropFor(sc.kept, target)
	}
	if sc.screen.Display.Conditions == nil {
		// A bare frame, or a screen whose conditions the phone did not give in
		// time: the first unit on it reads them (the units after it reuse the
		// saved screen).
		if saved, err := s.store.PreviewScreenSaved(ctx, rec.SessionID, sc.frozenID); err == nil && !saved {
			sc.screen.Display.Conditions = s.ScreenConditions(ctx, sc.serial)
		}
	}
	u.notePending(rec)
	res, err := s.saveSpoken(ctx, store.SaveBatchInput{SessionID: rec.SessionID, FrozenID: sc.frozenID,
		WorkspaceID: rec.VoiceSessionID, Screen: sc.screen, Items: []store.BatchItem{bi}, HoldPickup: true})
	if err != nil {
		return voice.UnitItem{}, unitRefusal(err)
	}
	it := res.Items[0]
	return unitItem(&it), nil
}

// unitScreen is the screen an item from speech is saved on.
type unitScreen struct {
	serial   string
	frozenID string
	screen   store.ScreenInput
	kept     *device.KeptScreen // for the crop; nil without a full capture
}

// unitScreen picks the screen and target: the first anchor's screen and node (or
// area), else a screen note on the screen shown now.
func (u *VoiceUnits) unitScreen(rec voice.UnitRecord) (unitScreen, store.Target, error) {
	s := u.s
	if len(rec.Anchors) > 0 {
		p := rec.Anchors[0].Pointing
		sc, err := u.pointingScreen(rec.VoiceSessionID, p)
		if err != nil {
			return sc, store.Target{}, err
		}
		return sc, pointingTarget(p, sc.screen.Width, sc.screen.Height), nil
	}
	serial := rec.Serial
	screenNote := store.Target{Type: store.TargetScreen}
	if s.device.Preview.Frozen() {
		if fr, ok := s.device.LatestFrozen(serial); ok {
			sc, err := fromKept(fr.ID, fr)
			return sc, screenNote, err
		}
	}
	if k := s.device.CurrentScreen(serial); k != nil {
		sc, err := fromKept(liveScreenID(rec.VoiceSessionID, k), k)
		return sc, screenNote, err
	}
	if live, ok := s.device.Preview.LatestFrame(serial); ok {
		sc, err := frameScreen(serial, live.ID, live.JPEG, "")
		return sc, screenNote, err
	}
	return unitScreen{}, store.Target{}, voice.Refuse("no_screen", "FixThis has no screen of the phone to put the change on")
}

// liveScreenID names a screen of the live phone within a voice session: units on
// the same screen share one saved screen.
func liveScreenID(voiceSessionID string, k *device.KeptScreen) string {
	return "voice-" + voiceSessionID + "-" + k.Snapshot.Fingerprint.String()
}

func fromKept(frozenID string, k *device.KeptScreen) (unitScreen, error) {
	in, err := screenInputOf(k)
	return unitScreen{serial: k.Serial, frozenID: frozenID, screen: in, kept: k}, err
}

func (u *VoiceUnits) pointingScreen(voiceSessionID string, p voice.Pointing) (unitScreen, error) {
	if p.Mode == "annotate" {
		if fr, ok := u.s.device.Frozen(p.FrameID); ok {
			return fromKept(fr.ID, fr)
		}
	}
	if p.Snapshot != nil && p.Snapshot.Frame != nil {
		k := u.pointed.find(p.Snapshot)
		if k == nil {
			k = device.NewKeptScreen("", p.Serial, p.Snapshot)
		}
		return fromKept(liveScreenID(voiceSessionID, k), k)
	}
	if len(p.Frame) > 0 {
		return frameScreen(p.Serial, p.FrameID, p.Frame, p.Activity)
	}
	return unitScreen{}, voice.Refuse("no_screen", "the anchor's frame is gone; point again")
}

// frameScreen saves a bare frame (no tree was known for it): the image only.
func frameScreen(serial, frameID string, data []byte, activity string) (unitScreen, error) {
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return unitScreen{}, fmt.Errorf("decode the anchor's frame: %w", err)
	}
	var buf bytes.Buffer
	if err := capture.EncodeScreenPNG(&buf, img); err != nil {
		return unitScreen{}, err
	}
	b := img.Bounds()
	return unitScreen{serial: serial, frozenID: "voice-frame-" + frameID, screen: store.ScreenInput{
		Activity: activity, Width: b.Dx(), Height: b.Dy(), ImagePNG: buf.Bytes(), Serial: serial}}, nil
}

// pointingTarget is the item's target: the node with its snapshot and breadcrumb,
// the area, or the screen.
func pointingTarget(p voice.Pointing, w, h int) store.Target {
	if n := p.Node; n != nil && p.Kind == voice.AnchorClick {
		t := store.Target{Type: store.TargetNode, NodeUID: n.UID, Bounds: clampBounds(n.Bounds, w, h), Snapshot: nodeSnapshot(*n)}
		if p.Snapshot != nil && p.Snapshot.Tree != nil {
			var crumbs []store.NodeSnapshot
			for _, anc := range p.Snapshot.Tree.Ancestors(n.UID) {
				crumbs = append(crumbs, *nodeSnapshot(anc))
			}
			if len(crumbs) > 0 {
				t.Ancestors, _ = json.Marshal(crumbs)
			}
		}
		return t
	}
	if p.Bounds != nil && !p.Bounds.Empty() {
		return store.Target{Type: store.TargetArea, Bounds: clampBounds(*p.Bounds, w, h)}
	}
	if p.X != nil && p.Y != nil {
		// A tap with no node under it: the area around the point.
		const r = 48
		return store.Target{Type: store.TargetArea, Bounds: clampBounds(capture.Bounds{Left: *p.X - r, Top: *p.Y - r, Right: *p.X + r, Bottom: *p.Y + r}, w, h)}
	}
	return store.Target{Type: store.TargetScreen}
}

func clampBounds(b capture.Bounds, w, h int) *store.Bounds {
	out := store.Bounds{Left: max(b.Left, 0), Top: max(b.Top, 0), Right: b.Right, Bottom: b.Bottom}
	if w > 0 && h > 0 {
		out.Right, out.Bottom = min(out.Right, w), min(out.Bottom, h)
	}
	return &out
}

func nodeSnapshot(n capture.Node) *store.NodeSnapshot {
	return &store.NodeSnapshot{Class: n.Class, Text: n.Text, TestTag: n.TestTag, ContentDescription: n.ContentDescription,
		Role: n.Role, ResourceID: n.ResourceID}
}

func unitItem(it *store.Item) voice.UnitItem {
	out := voice.UnitItem{ItemID: it.ItemID, SequenceNumber: it.SequenceNumber, Statement: it.Comment}
	if it.Voice != nil {
		out.Excerpt = it.Voice.Excerpt
	}
	return out
}

// unitRefusal says in the interviewer's terms why the store refused.
func unitRefusal(err error) error {
	switch errcode.Of(err) {
	case errcode.SessionClosed, errcode.SessionNotFound:
		return voice.Refuse("session_closed", "%v", err)
	case errcode.InvalidInput, errcode.TooLarge:
		return voice.Refuse("invalid", "%v", err)
	case errcode.ItemNotFound:
		return voice.Refuse("unknown_unit", "%v", err)
	}
	return err
}

// pointedScreens are the last few kept screens anchors pointed at, so a unit on
// one finds it (with its conditions and encoded image) from the anchor's capture.
type pointedScreens struct {
	mu   sync.Mutex
	kept []*device.KeptScreen
}

const keptPointedScreens = 4

func (p *pointedScreens) add(k *device.KeptScreen) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, have := range p.kept {
		if have == k {
			return
		}
	}
	p.kept = append(p.kept, k)
	if len(p.kept) > keptPointedScreens {
		p.kept = p.kept[1:]
	}
}

func (p *pointedScreens) find(snap *capture.Snapshot) *device.KeptScreen {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, k := range p.kept {
		if k.Snapshot == snap {
			return k
		}
	}
	return nil
}

package agentdevice

import (
	"bytes"
	"context"
	"image"
	"strconv"
	"sync"
	"time"

	"fixthis/app/display"
	"fixthis/app/errcode"
	"fixthis/app/store"
	"fixthis/app/verify"
	"fixthis/capture"
)

// Checking an item on sizes: FixThis holds a node, not a point, so it can find the
// item's node again on every size. Each size is shown in turn, the screen is left
// to settle, captured and kept, and the node is looked up with capture.FindNode
// (through verify.Locator, the matcher the after-fix check uses). The phone's own
// size is put back at the end, whatever happened.

// SizeCheck is one size of a check: what the item keeps (store.SizeOutcome, its
// picture URLs set once the check is stored) and the kept capture of the screen.
type SizeCheck struct {
	store.SizeOutcome
	CaptureID string `json:"captureId,omitempty"`
}

// sizeShot is a size as checked, with the pictures the item keeps of it.
type sizeShot struct {
	SizeCheck
	png, crop []byte
}

// cropMargin is the margin around the node in a size's crop, as in an item's crop.
const cropMargin = 24

// CheckSizesResult is what fixthis_check_sizes answers.
type CheckSizesResult struct {
	Serial    string      `json:"serial"`
	SessionID string      `json:"sessionId"`
	ItemID    string      `json:"itemId"`
	Sizes     []SizeCheck `json:"sizes"`
	// Restored: the phone's own size was put back at the end.
	Restored bool `json:"restored"`
}

// MaxCheckSizes bounds how many sizes one check shows.
const MaxCheckSizes = 6

// sizeChecks marks the phones a check is resizing: a second check, or a size
// change, on the same phone is refused until it ends.
var sizeChecks sync.Map // serial → struct{}

func holdSizes(serial string) (release func(), err error) {
	if _, busy := sizeChecks.LoadOrStore(serial, struct{}{}); busy {
		return nil, errcode.New(errcode.DisplayRefused, "another size check is changing the size of %s; wait for it to finish", serial)
	}
	return func() { sizeChecks.Delete(serial) }, nil
}

// CheckSizes shows the item's screen at each preset (the three reference sizes
// when none are named) and reports, per size, whether its node is there and how,
// once the user allows agents to control the phone. The check is stored on the item.
func (p *Phone) CheckSizes(ctx context.Context, serial, sessionID, itemID string, presets []display.Preset) (*CheckSizesResult, error) {
	return p.checkSizes(ctx, serial, sessionID, itemID, presets, false)
}

// CheckSizesForUser is the same check started by the user in the console: it
// needs no leave to control the phone, which only agents ask for.
func (p *Phone) CheckSizesForUser(ctx context.Context, serial, sessionID, itemID string, presets []display.Preset) (*CheckSizesResult, error) {
	return p.checkSizes(ctx, serial, sessionID, itemID, presets, true)
}

func (p *Phone) checkSizes(ctx context.Context, serial, sessionID, itemID string, presets []display.Preset, byUser bool) (*CheckSizesResult, error) {
	if len(presets) == 0 {
		presets = display.Presets
	}
	if len(presets) > MaxCheckSizes {
		return nil, errcode.New(errcode.OutOfRange, "%d sizes is too many for one check: at most %d", len(presets), MaxCheckSizes)
	}
	for _, pr := range presets {
		if err := pr.Check(); err != nil {
			return nil, err
		}
	}
	item, err := p.o.Store.ReadItem(ctx, sessionID, itemID)
	if err != nil {
		return nil, err
	}
	if item.Item.Target.Type != "node" || item.Item.Target.Snapshot == nil {
		return nil, errcode.New(errcode.InvalidInput, "item %s points at %s, not a node: there is nothing to find on other sizes", errcode.Quote(itemID), errcode.Quote(string(item.Item.Target.Type)))
	}
	m, t, tg, release, err := p.sizeControl(ctx, serial, nil, byUser)
	if err != nil {
		return nil, err
	}
	defer release()
	res := &CheckSizesResult{Serial: t.Serial, SessionID: item.Item.SessionID, ItemID: item.Item.ItemID}
	restoreOnce := sync.Once{}
	restore := func() {
		restoreOnce.Do(func() {
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
			defer cancel()
			if _, restored, err := m.ResetSize(rctx, tg); err == nil {
				res.Restored = restored
				p.bringBack(rctx, t.Serial, tg.Package)
			} else {
				p.o.Log.Warn("put the size back after a size check", "serial", t.Serial, "err", err)
			}
			if p.o.AfterAction != nil {
				p.o.AfterAction(t.Serial)
			}
		})
	}
	// The phone ends as it was, even when the check was cancelled.
	defer restore()
	loc := verify.Locator(item.Item.Target)
	shots := make([]sizeShot, 0, len(presets))
	for _, pr := range presets {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		shots = append(shots, p.checkOne(ctx, t.Serial, tg, m, pr, loc, !byUser))
	}
	// Put back before the check is stored, so the stored check says whether it was.
	restore()
	in := store.SizeCheckInput{SessionID: res.SessionID, ItemID: res.ItemID, Serial: t.Serial, Restored: res.Restored}
	found := 0
	for _, sh := range shots {
		in.Sizes = append(in.Sizes, store.SizeOutcomeInput{SizeOutcome: sh.SizeOutcome, PNG: sh.png, CropPNG: sh.crop})
		if sh.Found {
			found++
		}
	}
	saved, err := p.o.Store.SaveSizeCheck(ctx, in)
	if err != nil {
		return nil, err
	}
	for i, sh := range shots {
		res.Sizes = append(res.Sizes, SizeCheck{SizeOutcome: saved.Sizes[i], CaptureID: sh.CaptureID})
	}
	if !byUser {
		p.record(ctx, t.Serial, "display", "checked an item on "+strconv.Itoa(len(res.Sizes))+" sizes (found on "+strconv.Itoa(found)+")", "ok")
	}
	return res, nil
}

// checkOne shows one preset and looks for the node there; logged says whether its
// captures go in the agents' activity list.
func (p *Phone) checkOne(ctx context.Context, serial string, tg display.Target, m *display.Manager, pr display.Preset, loc capture.Locator, logged bool) sizeShot {
	var sh sizeShot
	sh.Name = pr.Name
	st, plan, err := m.SetSize(ctx, tg, pr)
	if err != nil {
		sh.Error = firstLine(err.Error())
		return sh
	}
	sh.Width, sh.Height, sh.Density, sh.WidthDp, sh.HeightDp = st.Width, st.Height, plan.Density, st.WidthDp, st.HeightDp
	c, err := p.settledCapture(ctx, serial, logged)
	if err == nil && tg.Package != "" && c.Package != tg.Package {
		// The change left another window in front: the capture says so (no
		// separate read of the screen state), so the app is launched again.
		if _, err = p.launch(ctx, serial, tg.Package); err == nil {
			c, err = p.settledCapture(ctx, serial, logged)
		}
	}
	if err != nil {
		sh.Error = firstLine(err.Error())
		return sh
	}
	sh.CaptureID, sh.png = c.CaptureID, c.PNG
	match, ok := capture.FindNode(c.Nodes, loc, capture.MatchOptions{VisibleOnly: true})
	if !ok {
		return sh
	}
	n := match.Node
	b := n.Bounds
	sh.Found, sh.MatchedBy = true, string(match.By)
	sh.Bounds = &store.Bounds{Left: b.Left, Top: b.Top, Right: b.Right, Bottom: b.Bottom}
	sh.Clipped = b.Left < 0 || b.Top < 0 || b.Right > c.Width || b.Bottom > c.Height
	sh.CutOff = cutOff(c.Nodes, n)
	sh.Overlapping = overlapping(c.Nodes, n)
	if c.Frame != nil {
		var buf bytes.Buffer
		if _, err := capture.EncodeCropPNG(&buf, c.Frame, b, cropMargin); err == nil {
			sh.crop = buf.Bytes()
		}
	}
	return sh
}

// cutOff reports whether part of n lies outside one of its ancestors: a container
// too small for it, which draws it cut off.
func cutOff(nodes []capture.Node, n *capture.Node) bool {
	byUID := make(map[string]*capture.Node, len(nodes))
	for i := range nodes {
		byUID[nodes[i].UID] = &nodes[i]
	}
	for u, hops := n.ParentUID, 0; u != "" && hops < 256; hops++ {
		a, ok := byUID[u]
		if !ok {
			break
		}
		if !a.Bounds.Empty() && a.Bounds.Intersect(n.Bounds) != n.Bounds {
			return true
		}
		u = a.ParentUID
	}
	return false
}

// overlapping lists the labelled nodes that cover part of n without being its
// ancestor or descendant.
func overlapping(nodes []capture.Node, n *capture.Node) []string {
	parent := make(map[string]string, len(nodes))
	for _, o := range nodes {
		parent[o.UID] = o.ParentUID
	}
	related := func(a, b string) bool { // a is b or one of b's ancestors
		for u, hops := b, 0; u != "" && hops < 256; u, hops = parent[u], hops+1 {
			if u == a {
				return true
			}
		}
		return false
	}
	var out []string
	for _, o := range nodes {
		label := o.Text
		if label == "" {
			label = o.ContentDescription
		}
		if label == "" || related(o.UID, n.UID) || related(n.UID, o.UID) || o.Bounds.Intersect(n.Bounds).Empty() {
			continue
		}
		out = append(out, errcode.Quote(label))
		if len(out) == 5 {
			break
		}
	}
	return out
}

// settledCapture captures the screen once it holds still: a size change
// recreates the activity and lays it out again, so a capture counts only when a
// screencap taken right after it shows the same pixels (at most three tries).
// The capture's own frame is one of the two compared, so a still screen costs one
// extra frame.
func (p *Phone) settledCapture(ctx context.Context, serial string, logged bool) (*Capture, error) {
	dev := p.o.ADB.Device(serial)
	var c *Capture
	var err error
	for try := 0; try < 3; try++ {
		if c, err = p.capture(ctx, serial, logged); err != nil {
			return nil, err
		}
		shown, ok := c.Frame.(*image.NRGBA)
		if !ok {
			return c, nil // a capture taken elsewhere: nothing to compare
		}
		now, err := capture.CaptureFrame(ctx, dev, "")
		if err != nil || bytes.Equal(now.Pix, shown.Pix) {
			return c, nil
		}
	}
	return c, nil
}

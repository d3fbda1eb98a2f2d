package display

import (
	"context"
	"strconv"

	"fixthis/adb"
	"fixthis/app/errcode"
)

// keptSize is a phone's `wm size` as the originals keep it.
type keptSize struct {
	Physical adb.Size `json:"physical"`
	Override adb.Size `json:"override"` // zero: none
}

// SizeState is the size a phone renders at and what apps measure.
type SizeState struct {
	Width           int `json:"width"` // pixels, the override when there is one
	Height          int `json:"height"`
	PhysicalWidth   int `json:"physicalWidth"`
	PhysicalHeight  int `json:"physicalHeight"`
	Density         int `json:"density"`
	PhysicalDensity int `json:"physicalDensity"`
	WidthDp         int `json:"widthDp"` // Configuration.screenWidthDp in the natural orientation
	HeightDp        int `json:"heightDp"`
	// Changed says FixThis holds the phone's original display values to restore.
	Changed bool `json:"changed"`
}

func (r raw) sizeState() SizeState {
	s := SizeState{PhysicalDensity: r.PhysicalDensity, Density: r.PhysicalDensity}
	if r.DensityOverride > 0 {
		s.Density = r.DensityOverride
	}
	if r.Size != nil {
		s.PhysicalWidth, s.PhysicalHeight = r.Size.Physical.W, r.Size.Physical.H
		s.Width, s.Height = s.PhysicalWidth, s.PhysicalHeight
		if r.Size.Override != (adb.Size{}) {
			s.Width, s.Height = r.Size.Override.W, r.Size.Override.H
		}
	}
	if s.Density > 0 {
		s.WidthDp, s.HeightDp = s.Width*160/s.Density, s.Height*160/s.Density
	}
	return s
}

// ReadSize returns the size the phone renders at.
func (m *Manager) ReadSize(ctx context.Context, t Target) (SizeState, error) {
	defer m.lock(t.Serial)()
	return m.readSize(ctx, t)
}

func (m *Manager) readSize(ctx context.Context, t Target) (SizeState, error) {
	r, _, err := readPhone(ctx, Target{Shell: t.Shell, Serial: t.Serial, SDK: t.SDK}) // no package: no language read
	if err != nil {
		return SizeState{}, err
	}
	s := r.sizeState()
	s.Changed = m.Changed(t.Serial)
	return s, nil
}

// SetSize shows p on the phone: `wm size WxH` then `wm density N` as Plan
// chooses them. The phone's display values are kept first (as Set keeps them, in
// the same file, restored by the same Restore), and what the phone then reports
// is checked: a phone that clamps or ignores the size is a refusal, with the size
// put back.
func (m *Manager) SetSize(ctx context.Context, t Target, p Preset) (SizeState, SizePlan, error) {
	if err := p.Check(); err != nil {
		return SizeState{}, SizePlan{}, err // nothing is sent to the phone
	}
	defer m.lock(t.Serial)()
	sdk, err := sdkOf(ctx, t)
	if err != nil {
		return SizeState{}, SizePlan{}, err
	}
	cur, err := readRaw(ctx, Target{Shell: t.Shell, Serial: t.Serial, SDK: sdk}, sdk)
	if err != nil {
		return SizeState{}, SizePlan{}, err
	}
	if cur.Size == nil {
		return SizeState{}, SizePlan{}, errcode.New(errcode.DeviceNotAvailable, "the phone did not report its display size")
	}
	plan, err := p.Plan(cur.Size.Physical.W, cur.Size.Physical.H)
	if err != nil {
		return SizeState{}, SizePlan{}, err
	}
	m.mu.Lock()
	_, kept := m.saved[t.Serial]
	m.mu.Unlock()
	if err := m.keep(t.Serial, cur); err != nil {
		return SizeState{}, SizePlan{}, err
	}
	if !kept {
		m.mu.Lock()
		m.sizeOnly[t.Serial] = true
		m.mu.Unlock()
	}
	defer m.changed(t.Serial)
	if err := applySize(ctx, t.Shell, adb.Size{W: plan.Width, H: plan.Height}, plan.Density); err != nil {
		m.putSizeBack(ctx, t)
		return SizeState{}, SizePlan{}, err
	}
	got, err := m.readSize(ctx, t)
	if err != nil {
		return SizeState{}, SizePlan{}, err
	}
	if got.Width != plan.Width || got.Height != plan.Height || got.Density != plan.Density {
		m.putSizeBack(ctx, t)
		return SizeState{}, SizePlan{}, errcode.New(errcode.DisplayRefused,
			"the phone shows %dx%d at %d dpi instead of %dx%d at %d dpi for %s; its size was put back",
			got.Width, got.Height, got.Density, plan.Width, plan.Height, plan.Density, p.Name)
	}
	return got, plan, nil
}

// applySize sets the size, then the density (which `wm size … dp` would read).
func applySize(ctx context.Context, sh Shell, s adb.Size, density int) error {
	if err := setSize(ctx, sh, s); err != nil {
		return err
	}
	return setDensity(ctx, sh, density)
}

// ResetSize puts back the size and density the phone had before FixThis first
// changed its display. Its other kept values stay kept for Restore, unless only the
// size had changed: then nothing is kept any more and the phone reads as its own.
// restored is false when nothing was kept.
func (m *Manager) ResetSize(ctx context.Context, t Target) (st SizeState, restored bool, err error) {
	defer m.lock(t.Serial)()
	if restored, err = m.putSizeBackErr(ctx, t); err != nil {
		return SizeState{}, false, err
	}
	if restored {
		defer m.changed(t.Serial)
		if err := m.forgetSizeOnly(t.Serial); err != nil {
			return SizeState{}, true, err
		}
	}
	st, err = m.readSize(ctx, t)
	return st, restored, err
}

// forgetSizeOnly drops serial's originals when only its size was changed since they
// were kept: with the size put back the phone shows its own settings again, and a
// kept entry would still report it changed and be restored again on deselect.
func (m *Manager) forgetSizeOnly(serial string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.sizeOnly[serial] {
		return nil
	}
	delete(m.saved, serial)
	delete(m.sizeOnly, serial)
	return m.writeLocked()
}

// putSizeBack restores the kept size after a failed change; a failure here is
// left to Restore (on deselect, quit or the next start), which keeps trying.
func (m *Manager) putSizeBack(ctx context.Context, t Target) {
	if back, err := m.putSizeBackErr(ctx, t); back && err == nil {
		_ = m.forgetSizeOnly(t.Serial) // a failed write leaves the entry: Restore puts it back again
	}
}

func (m *Manager) putSizeBackErr(ctx context.Context, t Target) (bool, error) {
	m.mu.Lock()
	r, ok := m.saved[t.Serial]
	m.mu.Unlock()
	if !ok || r.Size == nil {
		return false, nil
	}
	if err := applySize(ctx, t.Shell, r.Size.Override, r.DensityOverride); err != nil {
		return false, errcode.Wrap(errcode.DisplayRefused, err, "put back the size of %s: %v", t.Serial, err)
	}
	return true, nil
}

// String is the plan as a log line: "tablet 1280×800 dp: 2032x1270 at 254 dpi".
func (p SizePlan) String() string {
	return p.Preset.Name + " " + strconv.Itoa(p.WidthDp) + "×" + strconv.Itoa(p.HeightDp) + " dp: " +
		strconv.Itoa(p.Width) + "x" + strconv.Itoa(p.Height) + " at " + strconv.Itoa(p.Density) + " dpi"
}

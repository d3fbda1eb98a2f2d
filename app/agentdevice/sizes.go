package agentdevice

import (
	"context"
	"time"

	"fixthis/app/display"
	"fixthis/capture"
)

// Window sizes as agents change them: fixthis_set_size shows a preset (phone,
// foldable, tablet) or a custom size on the phone in hand, fixthis_reset_size puts
// the phone's own size back. Both ask for control like every action, are written to
// the activity list, and bring the target app back to the front, since a size change
// may recreate its activity or leave the launcher in front.

// SizeResult is what a size tool answers.
type SizeResult struct {
	Serial string            `json:"serial"`
	Size   display.SizeState `json:"size"`
	// Plan is how the preset was reached (set only).
	Plan *display.SizePlan `json:"plan,omitempty"`
	// Restored: the phone's own size was put back (reset only).
	Restored bool `json:"restored,omitempty"`
	// Front says what became of the target app: "" when it stayed in front,
	// "brought back" when FixThis launched it again, or why it could not.
	Front string `json:"front,omitempty"`
}

// SetSize shows preset on the phone once the user allows control.
func (p *Phone) SetSize(ctx context.Context, serial string, preset display.Preset) (*SizeResult, error) {
	m, t, tg, release, err := p.sizeControl(ctx, serial, preset.Check, false)
	if err != nil {
		return nil, err
	}
	defer release()
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	st, plan, err := m.SetSize(ctx, tg, preset)
	if err != nil {
		p.record(ctx, t.Serial, "display", "size "+preset.Name+" failed: "+firstLine(err.Error()), "failed")
		return nil, err
	}
	res := &SizeResult{Serial: t.Serial, Size: st, Plan: &plan, Front: p.bringBack(ctx, t.Serial, tg.Package)}
	p.record(ctx, t.Serial, "display", "set the size to "+plan.String(), "ok")
	if p.o.AfterAction != nil {
		p.o.AfterAction(t.Serial)
	}
	return res, nil
}

// ResetSize puts back the size and density the phone had before FixThis changed them.
func (p *Phone) ResetSize(ctx context.Context, serial string) (*SizeResult, error) {
	m, t, tg, release, err := p.sizeControl(ctx, serial, nil, false)
	if err != nil {
		return nil, err
	}
	defer release()
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	st, restored, err := m.ResetSize(ctx, tg)
	if err != nil {
		p.record(ctx, t.Serial, "display", "resetting the size failed: "+firstLine(err.Error()), "failed")
		return nil, err
	}
	res := &SizeResult{Serial: t.Serial, Size: st, Restored: restored}
	detail := "found no size to put back"
	if restored {
		detail = "put the phone's own size back"
		res.Front = p.bringBack(ctx, t.Serial, tg.Package)
	}
	p.record(ctx, t.Serial, "display", detail, "ok")
	if p.o.AfterAction != nil {
		p.o.AfterAction(t.Serial)
	}
	return res, nil
}

// sizeControl starts a size call: the display manager, the phone once the user
// allows control (asked of agents only: byUser is the console's own call), the
// phone's hold against a size check running on it (released by the caller) and the
// display target.
func (p *Phone) sizeControl(ctx context.Context, serial string, check func() error, byUser bool) (*display.Manager, Target, display.Target, func(), error) {
	var m *display.Manager
	var t Target
	var err error
	if byUser {
		if m, err = p.displays(); err == nil {
			t, err = p.o.Pick(ctx, serial)
		}
	} else {
		m, t, err = p.displayControl(ctx, serial, "change", check)
	}
	if err != nil {
		return nil, Target{}, display.Target{}, nil, err
	}
	release, err := holdSizes(t.Serial)
	if err != nil {
		return nil, Target{}, display.Target{}, nil, err
	}
	return m, t, p.displayTarget(ctx, t.Serial), release, nil
}

// bringBack launches pkg again when a size change left another window in front,
// and says what it did ("" when the app stayed in front or none is named).
func (p *Phone) bringBack(ctx context.Context, serial, pkg string) string {
	if pkg == "" {
		return ""
	}
	st, err := capture.ReadScreenState(ctx, p.o.ADB.Device(serial))
	if err == nil && st.Package == pkg {
		return ""
	}
	if _, err := p.launch(ctx, serial, pkg); err != nil {
		return "could not bring " + pkg + " back: " + firstLine(err.Error())
	}
	return "brought back"
}

package agentdevice

import (
	"context"
	"time"

	"fixthis/app/display"
	"fixthis/app/errcode"
	"fixthis/app/store"
)

// The phone's display conditions as agents change them: fixthis_set_display and
// fixthis_restore_display ask for control like every action and are written to the
// activity list; captures report the conditions they were taken under.

// DisplayResult is what a display tool answers.
type DisplayResult struct {
	Serial string `json:"serial"`
	// Conditions is what differs from the phone's defaults, as the prompt writes it
	// ("night, fontScale=1.3, locale=ar"); "" when nothing does.
	Conditions string        `json:"conditions"`
	State      display.State `json:"state"`
	// Restored: the phone's original values were put back (restore only).
	Restored bool `json:"restored,omitempty"`
}

// displayTarget is the phone and the app whose locale a call sets: the app's own
// target where it runs (the console's display panel names the same one), else the
// phone alone; without an app named, the app of the newest session screen.
func (p *Phone) displayTarget(ctx context.Context, serial string) display.Target {
	t := display.Target{Shell: p.o.ADB.Device(serial), Serial: serial}
	if p.o.DisplayTarget != nil {
		if own, err := p.o.DisplayTarget(ctx, serial); err == nil {
			t = own
		}
	}
	if t.Package == "" {
		t.Package = p.sessionPackage(ctx)
	}
	return t
}

func (p *Phone) displays() (*display.Manager, error) {
	if p.o.Display == nil {
		return nil, errcode.New(errcode.DeviceNotAvailable, "display settings are not available in this process")
	}
	return p.o.Display, nil
}

// displayControl starts a display tool: the manager, the phone, the request's own
// check, and the user's leave to drive the phone (a refusal goes in the activity
// list as what the agent was not allowed to do: "change" or "restore").
func (p *Phone) displayControl(ctx context.Context, serial, verb string, check func() error) (*display.Manager, Target, error) {
	m, err := p.displays()
	if err != nil {
		return nil, Target{}, err
	}
	if check != nil {
		if err := check(); err != nil {
			return nil, Target{}, err // before Pick: a bad value never reaches the phone
		}
	}
	t, err := p.o.Pick(ctx, serial)
	if err != nil {
		return nil, Target{}, err
	}
	if err := p.allowed(ctx, t); err != nil {
		p.record(ctx, t.Serial, "display", "was not allowed to "+verb+" the display settings", "refused")
		return nil, Target{}, err
	}
	return m, t, nil
}

// SetDisplay changes the display conditions once the user allows control.
func (p *Phone) SetDisplay(ctx context.Context, serial string, c display.Change) (*DisplayResult, error) {
	m, t, err := p.displayControl(ctx, serial, "change", c.Precheck)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	st, err := m.Set(ctx, p.displayTarget(ctx, t.Serial), c)
	if err != nil {
		p.record(ctx, t.Serial, "display", "display settings failed: "+firstLine(err.Error()), "failed")
		return nil, err
	}
	line := st.Line()
	detail := "set the display to " + line
	if line == "" {
		detail = "set the display to the phone's defaults"
	}
	p.record(ctx, t.Serial, "display", detail, "ok")
	if p.o.AfterAction != nil {
		p.o.AfterAction(t.Serial)
	}
	return &DisplayResult{Serial: t.Serial, Conditions: line, State: st}, nil
}

// RestoreDisplay puts back the values the phone had before FixThis changed them.
func (p *Phone) RestoreDisplay(ctx context.Context, serial string) (*DisplayResult, error) {
	m, t, err := p.displayControl(ctx, serial, "restore", nil)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	tg := p.displayTarget(ctx, t.Serial)
	restored, err := m.Restore(ctx, tg)
	if err != nil {
		p.record(ctx, t.Serial, "display", "restoring the display failed: "+firstLine(err.Error()), "failed")
		return nil, err
	}
	st, err := m.Read(ctx, tg)
	if err != nil {
		return nil, err
	}
	detail := "restored the display settings"
	if !restored {
		detail = "found no display settings to restore"
	}
	p.record(ctx, t.Serial, "display", detail, "ok")
	if p.o.AfterAction != nil {
		p.o.AfterAction(t.Serial)
	}
	return &DisplayResult{Serial: t.Serial, Conditions: st.Line(), State: st, Restored: restored}, nil
}

// conditions reads the display conditions for a capture; nil when they cannot be
// read (the capture is still good without them).
func (p *Phone) conditions(ctx context.Context, serial string) *store.DisplayConditions {
	if p.o.Display == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	st, err := p.o.Display.Read(ctx, p.displayTarget(ctx, serial))
	if err != nil {
		p.o.Log.Warn("read the display conditions", "serial", serial, "err", err)
		return nil
	}
	return st.Conditions()
}

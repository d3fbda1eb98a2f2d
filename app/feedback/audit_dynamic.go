package feedback

import (
	"context"

	"fixthis/app/audit"
	"fixthis/app/display"
	"fixthis/app/errcode"
)

// DynamicAudit is the console's dynamic pass beside the static findings: the steps
// that ran, those skipped and why, and whether the display was put back.
type DynamicAudit struct {
	Ran     []string `json:"ran"`
	Skipped []string `json:"skipped,omitempty"`
	// Restored says the display settings are as they were before the pass;
	// RestoreError says why not (the display manager still holds the originals and
	// restores them when the phone is deselected, when FixThis quits or next starts).
	Restored     bool   `json:"restored"`
	RestoreError string `json:"restoreError,omitempty"`
	Ms           int64  `json:"ms"`
}

// AuditFrozenDynamic is AuditFrozen plus the dynamic pass on the phone the screen
// was frozen on, which should still show it: the app at font scale 2, in the dark
// theme and in Arabic, each compared with the frozen screen. The display is put back
// through the display manager whatever happens (audit.DynamicOnPhone): to the phone's
// own values when the screen was frozen under them, else to the conditions it was
// frozen under.
func (s *Service) AuditFrozenDynamic(ctx context.Context, frozenID string) (*AuditResult, error) {
	if s.displays == nil {
		return nil, errcode.New(errcode.DeviceNotAvailable, "display settings are not available in this process")
	}
	fr, in, res, static, err := s.frozenAudit(frozenID)
	if err != nil {
		return nil, err
	}
	t, err := s.DisplayTarget(ctx, fr.Serial)
	if err != nil {
		return nil, err
	}
	pass, err := audit.DynamicOnPhone(ctx, &consolePhone{s: s, t: t, density: in.DensityDPI}, in, static, fr.Conditions, nil)
	if err != nil {
		return nil, err
	}
	res.Dynamic = &DynamicAudit{Ran: pass.Ran, Skipped: pass.Skipped, Restored: pass.Restored, RestoreError: pass.RestoreError, Ms: pass.Ms}
	return res, s.keepUndismissed(ctx, fr, res, append(static, pass.Findings...))
}

// consolePhone is the selected phone as the dynamic pass drives it from the console.
type consolePhone struct {
	s       *Service
	t       display.Target
	density int
}

func (p *consolePhone) SetDisplay(ctx context.Context, c display.Change) error {
	_, err := p.s.displays.Set(ctx, p.t, c)
	return err
}

func (p *consolePhone) RestoreDisplay(ctx context.Context) error {
	_, err := p.s.displays.Restore(ctx, p.t)
	return err
}

func (p *consolePhone) Screen(ctx context.Context) (audit.Input, error) {
	snap, err := p.s.device.Capturer.Capture(ctx, p.t.Serial)
	if err != nil {
		return audit.Input{}, err
	}
	in := audit.Input{Nodes: snap.Nodes, DensityDPI: p.density, Width: snap.Width, Height: snap.Height,
		Covered: audit.CoveringWindows(snap.State.Windows)}
	if !snap.State.Secure && snap.Frame != nil {
		in.Pixels = snap.Frame
	}
	return in, nil
}

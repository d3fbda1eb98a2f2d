package feedback

import (
	"context"
	"fmt"
	"time"

	"fixthis/app/audit"
	"fixthis/app/display"
	"fixthis/app/errcode"
	"fixthis/app/store"
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

// dynamicPutBackTimeout bounds putting the display back, which runs even when the
// request was cancelled.
const dynamicPutBackTimeout = 20 * time.Second

// AuditFrozenDynamic is AuditFrozen plus the dynamic pass on the phone the screen
// was frozen on, which should still show it: the app at font scale 2, in the dark
// theme and in Arabic, each compared with the frozen screen. The display is put back
// through the display manager whatever happens: to the phone's own values when the
// screen was frozen under them, else to the conditions it was frozen under.
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
	before := audit.BeforeOf(fr.Conditions, display.RTL)
	start := time.Now()
	phone := &consolePhone{s: s, t: t, density: in.DensityDPI}
	rep, passErr := audit.Dynamic(ctx, in, static, before, phone, nil)
	res.Dynamic = &DynamicAudit{Ran: rep.Ran, Skipped: rep.Skipped}
	if phone.changed {
		if err := s.putDisplayBack(ctx, t, fr.Conditions); err != nil {
			res.Dynamic.RestoreError = err.Error()
		}
	}
	res.Dynamic.Restored = res.Dynamic.RestoreError == ""
	res.Dynamic.Ms = time.Since(start).Milliseconds()
	if passErr != nil {
		if !res.Dynamic.Restored {
			return nil, fmt.Errorf("%w; and the display was not put back: %s", passErr, res.Dynamic.RestoreError)
		}
		return nil, passErr
	}
	return res, s.keepUndismissed(ctx, fr, res, append(static, rep.Findings...))
}

// putDisplayBack restores the display after the pass on a context the request's
// cancel does not end.
func (s *Service) putDisplayBack(ctx context.Context, t display.Target, was *store.DisplayConditions) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), dynamicPutBackTimeout)
	defer cancel()
	if c, ok := display.Undo(was); ok {
		_, err := s.displays.Set(ctx, t, c)
		return err
	}
	_, err := s.displays.Restore(ctx, t)
	return err
}

// consolePhone is the selected phone as audit.Dynamic drives it from the console.
type consolePhone struct {
	s       *Service
	t       display.Target
	density int
	changed bool
}

func (p *consolePhone) Set(ctx context.Context, st audit.Setting) error {
	p.changed = true
	_, err := p.s.displays.Set(ctx, p.t, display.Change{FontScale: st.FontScale, Night: st.Night, Locale: st.Locale})
	return audit.SettingError(st, err)
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

package audit

import (
	"context"
	"fmt"
	"time"

	"fixthis/app/display"
	"fixthis/app/store"
)

// PassPhone is a phone the dynamic pass runs on through FixThis's display settings:
// the console's display manager and the MCP device both offer this, bound to one
// phone.
type PassPhone interface {
	// SetDisplay applies c and returns once the app drew under it.
	SetDisplay(ctx context.Context, c display.Change) error
	// RestoreDisplay puts back the phone's own values the display manager kept.
	RestoreDisplay(ctx context.Context) error
	// Screen captures the screen as it is now, with the base screen's density.
	Screen(ctx context.Context) (Input, error)
}

// PassResult is the dynamic pass on a phone and whether its display was put back.
type PassResult struct {
	DynamicReport
	// Restored says the display settings are as they were before the pass;
	// RestoreError says why not (the display manager still holds the originals and
	// restores them when the phone is deselected, when FixThis quits or next starts).
	Restored     bool
	RestoreError string
	Ms           int64
}

// putBackTimeout bounds putting the display back after the pass, which runs even
// when the caller's context was cancelled.
const putBackTimeout = 20 * time.Second

// DynamicOnPhone runs Dynamic on p, base being its screen drawn under the display
// conditions was, and then puts the display back whatever happened, on a context
// the caller's cancel does not end: to the phone's own values when was are its
// defaults (the manager then forgets the originals it kept for the pass), else to
// was, so a setting the user chose survives the pass. A pass that failed and could
// not put the display back says both in its error.
func DynamicOnPhone(ctx context.Context, p PassPhone, base Input, static []Finding, was *store.DisplayConditions, progress func(step int, name string)) (PassResult, error) {
	start := time.Now()
	ph := &settingPhone{PassPhone: p}
	rep, err := Dynamic(ctx, base, static, BeforeOf(was, display.RTL), ph, progress)
	res := PassResult{DynamicReport: rep}
	if ph.changed {
		if perr := putBack(ctx, p, was); perr != nil {
			res.RestoreError = perr.Error()
			if err != nil {
				err = fmt.Errorf("%w; and the display was not put back: %v (FixThis restores it when the phone is deselected or on its next start)", err, perr)
			}
		}
	}
	res.Restored = res.RestoreError == ""
	res.Ms = time.Since(start).Milliseconds()
	return res, err
}

// putBack restores the display after the pass on a context the caller's cancel
// does not end.
func putBack(ctx context.Context, p PassPhone, was *store.DisplayConditions) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), putBackTimeout)
	defer cancel()
	if c, ok := display.Undo(was); ok {
		return p.SetDisplay(ctx, c)
	}
	return p.RestoreDisplay(ctx)
}

// settingPhone is a PassPhone as Dynamic drives it, remembering whether a setting
// reached the phone: only then is there anything to put back.
type settingPhone struct {
	PassPhone
	changed bool
}

func (p *settingPhone) Set(ctx context.Context, s Setting) error {
	p.changed = true
	return SettingError(s, p.SetDisplay(ctx, display.Change{FontScale: s.FontScale, Night: s.Night, Locale: s.Locale}))
}

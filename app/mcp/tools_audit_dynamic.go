package mcp

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"fixthis/app/agentdevice"
	"fixthis/app/audit"
	"fixthis/app/display"
	"fixthis/app/errcode"
	"fixthis/app/store"
)

// dynamicOut is the dynamic pass beside the static findings: the steps that ran, the
// ones skipped and why, and whether the phone's display was put back.
type dynamicOut struct {
	audit.DynamicReport
	// Restored says the display settings are as they were before the pass;
	// RestoreError says why not (FixThis keeps the originals and restores them when
	// the phone is deselected, when the app quits or on its next start).
	Restored     bool   `json:"restored"`
	RestoreError string `json:"restoreError,omitempty"`
	Ms           int64  `json:"ms"`
}

// putBackTimeout bounds restoring the display after the pass, which runs even when
// the call was cancelled.
const putBackTimeout = 20 * time.Second

// dynamicPass runs audit.Dynamic on the phone of base and puts its display back
// through the display manager: to the phone's own values when base was drawn under
// them (the manager then forgets the originals it kept for the pass), else to base's
// conditions, so a setting the user chose survives the pass.
func (t *toolset) dynamicPass(ctx context.Context, req mcp.CallToolRequest, base *agentdevice.Capture, in audit.Input, static []audit.Finding) (*dynamicOut, error) {
	d, ok := t.deps.Device.(DisplayDevice)
	if !ok {
		return nil, errcode.New(errcode.InvalidInput, "this process cannot change display settings, so it cannot run the dynamic pass")
	}
	before := audit.BeforeOf(base.Conditions, display.RTL)
	start := time.Now()
	out := &dynamicOut{}
	phone := &passPhone{t: t, d: d, serial: base.Serial, density: in.DensityDPI}
	rep, err := audit.Dynamic(ctx, in, static, before, phone, stepNotifier(ctx, req))
	out.DynamicReport = rep
	if phone.changed {
		if perr := t.putBack(ctx, d, base.Serial, base.Conditions); perr != nil {
			out.RestoreError = perr.Error()
			if err != nil {
				err = fmt.Errorf("%w; and the display was not put back: %v (FixThis restores it when the phone is deselected or on its next start)", err, perr)
			}
		}
	}
	out.Restored = out.RestoreError == ""
	out.Ms = time.Since(start).Milliseconds()
	return out, err
}

// putBack restores the display after the pass, on a context the caller's cancel
// does not end.
func (t *toolset) putBack(ctx context.Context, d DisplayDevice, serial string, was *store.DisplayConditions) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), putBackTimeout)
	defer cancel()
	if c, ok := display.Undo(was); ok {
		_, err := d.SetDisplay(ctx, serial, c)
		return err
	}
	_, err := d.RestoreDisplay(ctx, serial)
	return err
}

// passPhone is the selected phone as audit.Dynamic drives it.
type passPhone struct {
	t       *toolset
	d       DisplayDevice
	serial  string
	density int
	changed bool // a Set reached the phone: it must be put back
}

func (p *passPhone) Set(ctx context.Context, s audit.Setting) error {
	p.changed = true
	_, err := p.d.SetDisplay(ctx, p.serial, display.Change{FontScale: s.FontScale, Night: s.Night, Locale: s.Locale})
	return audit.SettingError(s, err)
}

func (p *passPhone) Screen(ctx context.Context) (audit.Input, error) {
	c, err := p.t.deps.Device.Capture(ctx, p.serial)
	if err != nil {
		return audit.Input{}, err
	}
	kept, err := p.t.deps.Store.GetCapture(ctx, c.CaptureID)
	if err != nil {
		return audit.Input{}, err
	}
	in, err := p.t.auditInput(ctx, kept, p.density, audit.CoveringWindows(c.Display.Windows))
	var bad *badAudit
	if errors.As(err, &bad) {
		return audit.Input{}, errors.New(bad.msg)
	}
	return in, err
}

// stepNotifier sends a progress notification for each step of the pass when the
// client gave a progressToken.
func stepNotifier(ctx context.Context, req mcp.CallToolRequest) func(int, string) {
	if req.Params.Meta == nil || req.Params.Meta.ProgressToken == nil {
		return nil
	}
	token, srv := req.Params.Meta.ProgressToken, server.ServerFromContext(ctx)
	return func(step int, name string) {
		if srv == nil {
			return
		}
		_ = srv.SendNotificationToClient(ctx, "notifications/progress", map[string]any{
			"progressToken": token, "progress": step, "total": audit.DynamicSteps,
			"message": fmt.Sprintf("dynamic audit %d/%d: %s", step+1, audit.DynamicSteps, name),
		})
	}
}

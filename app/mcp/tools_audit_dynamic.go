package mcp

import (
	"context"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"fixthis/app/agentdevice"
	"fixthis/app/audit"
	"fixthis/app/display"
	"fixthis/app/errcode"
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

// dynamicPass runs the dynamic pass on the phone of base through its DisplayDevice
// (audit.DynamicOnPhone, which puts the display back afterwards).
func (t *toolset) dynamicPass(ctx context.Context, req mcp.CallToolRequest, base *agentdevice.Capture, in audit.Input, static []audit.Finding) (*dynamicOut, error) {
	d, ok := t.deps.Device.(DisplayDevice)
	if !ok {
		return nil, errcode.New(errcode.InvalidInput, "this process cannot change display settings, so it cannot run the dynamic pass")
	}
	phone := &passPhone{t: t, d: d, serial: base.Serial, density: in.DensityDPI}
	res, err := audit.DynamicOnPhone(ctx, phone, in, static, base.Conditions, stepNotifier(ctx, req))
	return &dynamicOut{DynamicReport: res.DynamicReport, Restored: res.Restored, RestoreError: res.RestoreError, Ms: res.Ms}, err
}

// passPhone is the selected phone as the dynamic pass drives it.
type passPhone struct {
	t       *toolset
	d       DisplayDevice
	serial  string
	density int
}

func (p *passPhone) SetDisplay(ctx context.Context, c display.Change) error {
	_, err := p.d.SetDisplay(ctx, p.serial, c)
	return err
}

func (p *passPhone) RestoreDisplay(ctx context.Context) error {
	_, err := p.d.RestoreDisplay(ctx, p.serial)
	return err
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
	send := progressSender(ctx, req)
	if send == nil {
		return nil
	}
	return func(step int, name string) {
		send(step, audit.DynamicSteps, fmt.Sprintf("dynamic audit %d/%d: %s", step+1, audit.DynamicSteps, name))
	}
}

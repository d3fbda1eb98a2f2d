package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"fixthis/app/agentdevice"
	"fixthis/app/audit"
	"fixthis/app/errcode"
	"fixthis/app/store"
	"fixthis/capture"
)

// DensityReader is a Device that can read the phone's display density (what
// `wm density` prints, the override when one is set). fixthis_audit_screen uses it
// for a fresh capture; without it the density comes from the tool's argument or
// from a density override the capture's display conditions recorded.
type DensityReader interface {
	DisplayDensity(ctx context.Context, serial string) (int, error)
}

// The phone both the app and the sidecar drive reads its density.
var _ DensityReader = (*agentdevice.Phone)(nil)

type auditOut struct {
	CaptureID  string `json:"captureId"`
	Activity   string `json:"activity,omitempty"`
	DensityDPI int    `json:"densityDpi"`
	// ContrastChecked is false when the capture's image could not be read: the
	// tree checks ran, the contrast checks did not.
	ContrastChecked bool            `json:"contrastChecked"`
	Findings        []audit.Finding `json:"findings"`
}

func (t *toolset) auditScreen() server.ServerTool {
	tool := mcp.NewTool("fixthis_audit_screen",
		mcp.WithDescription("Audit a screen for accessibility and layout flaws, with the rules and thresholds of Google's "+
			"Accessibility Test Framework: touch targets under 48 dp, controls a screen reader cannot name, duplicate labels, "+
			"text and image contrast, children outside their parent, covered text, over-wide buttons and text fields. "+
			"Without captureId it captures the device's current screen first (as fixthis_capture_screen). Each finding has "+
			"the node, its bounds in device pixels, the measured and required values, a suggested fix and a stable key."),
		mcp.WithTitleAnnotation("Audit screen accessibility"),
		mcp.WithString("captureId", mcp.MaxLength(200),
			mcp.Description("A kept capture (from fixthis_capture_screen) to audit instead of the current screen.")),
		serialArg(),
		mcp.WithNumber("density", mcp.Min(audit.MinDensityDPI), mcp.Max(audit.MaxDensityDPI),
			mcp.Description("The display density in dpi (adb shell wm density); needed only when FixThis cannot read it.")),
		mcp.WithReadOnlyHintAnnotation(true),
		mcp.WithDestructiveHintAnnotation(false),
		mcp.WithIdempotentHintAnnotation(false),
		mcp.WithOpenWorldHintAnnotation(true),
		mcp.WithOutputSchema[auditOut](),
	)
	fresh := t.deviceTool(func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		serial := strings.TrimSpace(req.GetString("serial", ""))
		c, err := t.deps.Device.Capture(ctx, serial)
		if err != nil {
			return toolResult(err)
		}
		density := req.GetInt("density", 0)
		if dr, ok := t.deps.Device.(DensityReader); ok && density == 0 {
			if density, err = dr.DisplayDensity(ctx, c.Serial); err != nil {
				return toolResult(err)
			}
		}
		return t.auditCapture(ctx, c.CaptureID, density, audit.CoveringWindows(c.Display.Windows))
	})
	return server.ServerTool{Tool: tool, Handler: func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if id := strings.TrimSpace(req.GetString("captureId", "")); id != "" {
			return t.auditCapture(ctx, id, req.GetInt("density", 0), nil)
		}
		return fresh(ctx, req)
	}}
}

// auditCapture audits a kept capture: its nodes, its frame and the density (the
// argument, else the override its display conditions recorded). covered are the
// windows drawn over the app when the capture was taken, known only for a fresh one.
func (t *toolset) auditCapture(ctx context.Context, captureID string, density int, covered []capture.Bounds) (*mcp.CallToolResult, error) {
	c, err := t.deps.Store.GetCapture(ctx, captureID)
	if err != nil {
		return toolResult(err)
	}
	if density == 0 && c.Conditions != nil {
		density = c.Conditions.Density
	}
	out := auditOut{CaptureID: c.CaptureID, Activity: c.Activity, DensityDPI: density}
	out.Findings, out.ContrastChecked, err = t.runAudit(ctx, c, density, covered)
	var bad *badAudit
	if errors.As(err, &bad) {
		return invalidArg("%s", bad.msg), nil
	}
	if err != nil {
		return toolResult(err)
	}
	return structured(out)
}

// badAudit is a capture that cannot be audited as it is (no density, no tree, bad
// input): the caller's mistake, not a failure.
type badAudit struct{ msg string }

func (b *badAudit) Error() string { return b.msg }

// runAudit audits a kept capture; contrast says whether its image could be read (the
// tree checks ran either way).
func (t *toolset) runAudit(ctx context.Context, c *store.Capture, density int, covered []capture.Bounds) (findings []audit.Finding, contrast bool, err error) {
	id := errcode.Quote(c.CaptureID)
	if density == 0 {
		return nil, false, &badAudit{"the density of capture " + id + " is unknown: pass density in dpi (adb shell wm density prints it)"}
	}
	if c.NodesArtifact == "" {
		return nil, false, &badAudit{"capture " + id + " has no UI tree to audit"}
	}
	in := audit.Input{DensityDPI: density, Width: c.Width, Height: c.Height, Covered: covered}
	raw, err := t.deps.Store.ReadArtifact(ctx, c.NodesArtifact)
	if err != nil {
		return nil, false, err
	}
	if err := json.Unmarshal(raw, &in.Nodes); err != nil {
		return nil, false, errors.New("decode the nodes of capture " + id + ": " + err.Error())
	}
	if png, err := t.deps.Store.ReadArtifact(ctx, c.ImageArtifact); err == nil {
		if frame, err := capture.DecodePNG(png); err == nil {
			in.Pixels, contrast = frame, true
		}
	}
	if findings, err = audit.Run(in); err != nil {
		return nil, false, &badAudit{"capture " + id + " cannot be audited: " + err.Error()}
	}
	if findings == nil {
		findings = []audit.Finding{}
	}
	return findings, contrast, nil
}

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
	// Dynamic is the dynamic pass (dynamic: true); its findings are also in Findings.
	Dynamic *dynamicOut `json:"dynamic,omitempty"`
}

func (t *toolset) auditScreen() server.ServerTool {
	tool := mcp.NewTool("fixthis_audit_screen",
		mcp.WithDescription("Audit a screen for accessibility and layout flaws, with the rules and thresholds of Google's "+
			"Accessibility Test Framework: touch targets under 48 dp, controls a screen reader cannot name, duplicate labels, "+
			"text and image contrast, children outside their parent, covered text, over-wide buttons and text fields. "+
			"Without captureId it captures the device's current screen first (as fixthis_capture_screen). Each finding has "+
			"the node, its bounds in device pixels, the measured and required values, a suggested fix and a stable key. "+
			"dynamic: true also checks the screen at font scale 2, in the dark theme and right to left, then restores the display."),
		mcp.WithTitleAnnotation("Audit screen accessibility"),
		mcp.WithString("captureId", mcp.MaxLength(200),
			mcp.Description("A kept capture (from fixthis_capture_screen) to audit instead of the current screen.")),
		serialArg(),
		mcp.WithNumber("density", mcp.Min(audit.MinDensityDPI), mcp.Max(audit.MaxDensityDPI),
			mcp.Description("The display density in dpi (adb shell wm density); needed only when FixThis cannot read it.")),
		mcp.WithBoolean("dynamic", mcp.Description("Also audit the current screen at font scale 2, in the dark theme and in a right-to-left "+
			"language for the app (text_scaling, contrast again, locale_text), then put the display settings back. Takes a few seconds; "+
			"not with captureId.")),
		hints{openWorld: true}.option(), // not read-only: dynamic changes display settings for a moment, then restores them
		mcp.WithOutputSchema[auditOut](),
	)
	fresh := t.deviceTool(func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		c, err := t.deps.Device.Capture(ctx, serialOf(req))
		if err != nil {
			return toolResult(err)
		}
		density := req.GetInt("density", 0)
		if dr, ok := t.deps.Device.(DensityReader); ok && density == 0 {
			if density, err = dr.DisplayDensity(ctx, c.Serial); err != nil {
				return toolResult(err)
			}
		}
		if req.GetBool("dynamic", false) {
			return t.auditDynamic(ctx, req, c, density)
		}
		return t.auditCapture(ctx, c.CaptureID, density, audit.CoveringWindows(c.Display.Windows))
	})
	return server.ServerTool{Tool: tool, Handler: func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if id := strings.TrimSpace(req.GetString("captureId", "")); id != "" {
			if req.GetBool("dynamic", false) {
				return invalidArg("dynamic audits the current screen: leave out captureId"), nil
			}
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
	out, _, err := t.staticAudit(ctx, c, density, covered)
	return auditAnswer(out, err)
}

// auditDynamic audits the fresh capture c, then runs the dynamic pass on its phone.
func (t *toolset) auditDynamic(ctx context.Context, req mcp.CallToolRequest, c *agentdevice.Capture, density int) (*mcp.CallToolResult, error) {
	kept, err := t.deps.Store.GetCapture(ctx, c.CaptureID)
	if err != nil {
		return toolResult(err)
	}
	out, in, err := t.staticAudit(ctx, kept, density, audit.CoveringWindows(c.Display.Windows))
	if err != nil {
		return auditAnswer(out, err)
	}
	if out.Dynamic, err = t.dynamicPass(ctx, req, c, in, out.Findings); err != nil {
		return toolResult(err)
	}
	out.Findings = append(out.Findings, out.Dynamic.Findings...)
	return structured(out)
}

// staticAudit audits the kept capture c: the answer without the dynamic pass, and
// the input that pass compares its screens with.
func (t *toolset) staticAudit(ctx context.Context, c *store.Capture, density int, covered []capture.Bounds) (auditOut, audit.Input, error) {
	out := auditOut{CaptureID: c.CaptureID, Activity: c.Activity, DensityDPI: density}
	var in audit.Input
	var err error
	out.Findings, in, err = t.runAudit(ctx, c, density, covered)
	out.ContrastChecked = in.Pixels != nil
	return out, in, err
}

// auditAnswer is the reply to an audit: a capture that cannot be audited is the
// caller's mistake (INVALID_INPUT), any other failure as toolResult says.
func auditAnswer(out auditOut, err error) (*mcp.CallToolResult, error) {
	var bad *badAudit
	if errors.As(err, &bad) {
		return invalidArg("%s", bad.msg), nil
	}
	return answer(out, err)
}

// badAudit is a capture that cannot be audited as it is (no density, no tree, bad
// input): the caller's mistake, not a failure.
type badAudit struct{ msg string }

func (b *badAudit) Error() string { return b.msg }

// runAudit audits a kept capture and returns what it audited too: in.Pixels is nil
// when its image could not be read (the tree checks ran either way).
func (t *toolset) runAudit(ctx context.Context, c *store.Capture, density int, covered []capture.Bounds) (findings []audit.Finding, in audit.Input, err error) {
	if in, err = t.auditInput(ctx, c, density, covered); err != nil {
		return nil, in, err
	}
	if findings, err = audit.Run(in); err != nil {
		return nil, in, &badAudit{"capture " + errcode.Quote(c.CaptureID) + " cannot be audited: " + err.Error()}
	}
	if findings == nil {
		findings = []audit.Finding{}
	}
	return findings, in, nil
}

// auditInput reads what the audit needs of a kept capture: its nodes, its frame
// when the image decodes (else the contrast checks do not run) and the density.
func (t *toolset) auditInput(ctx context.Context, c *store.Capture, density int, covered []capture.Bounds) (audit.Input, error) {
	id := errcode.Quote(c.CaptureID)
	if density == 0 {
		return audit.Input{}, &badAudit{"the density of capture " + id + " is unknown: pass density in dpi (adb shell wm density prints it)"}
	}
	if c.NodesArtifact == "" {
		return audit.Input{}, &badAudit{"capture " + id + " has no UI tree to audit"}
	}
	in := audit.Input{DensityDPI: density, Width: c.Width, Height: c.Height, Covered: covered}
	raw, err := t.deps.Store.ReadArtifact(ctx, c.NodesArtifact)
	if err != nil {
		return audit.Input{}, err
	}
	if err := json.Unmarshal(raw, &in.Nodes); err != nil {
		return audit.Input{}, errors.New("decode the nodes of capture " + id + ": " + err.Error())
	}
	if png, err := t.deps.Store.ReadArtifact(ctx, c.ImageArtifact); err == nil {
		if frame, err := capture.DecodePNG(png); err == nil {
			in.Pixels = frame
		}
	}
	return in, nil
}

package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"fixthis/app/mcp"
	"fixthis/capture"
)

// mcpCapturer serves fixthis_capture_screen from the running app's device layer, so an
// agent can check its fix on the device the user is looking at.
type mcpCapturer struct{ a *App }

func (c mcpCapturer) CaptureScreen(ctx context.Context, serial string) (*mcp.Capture, error) {
	dev, err := c.a.device.Registry.Lookup(serial)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	snap, err := c.a.device.Capturer.Capture(ctx, dev.Serial)
	if err != nil {
		return nil, fmt.Errorf("capture %s: %w", dev.Serial, err)
	}
	return &mcp.Capture{
		Serial:      dev.Serial,
		Package:     snap.State.Package,
		Activity:    snap.State.Activity,
		Fingerprint: snap.Fingerprint.String(),
		Width:       snap.Width,
		Height:      snap.Height,
		Frame:       snap.Frame,
		Tree:        treeSummary(snap),
	}, nil
}

// treeSummary is one line per meaningful node: enough for an agent to check a label,
// a tag or a position without the whole dump.
func treeSummary(snap *capture.Snapshot) string {
	if snap.TreeErr != nil {
		return "UI tree unavailable: " + snap.TreeErr.Error()
	}
	var b strings.Builder
	for _, n := range snap.Nodes {
		label := firstNonEmpty(n.TestTag, n.Text, n.ContentDescription)
		if label == "" && !n.Clickable {
			continue
		}
		depth := strings.Count(n.IndexPath, ".")
		fmt.Fprintf(&b, "%s%s", strings.Repeat("  ", min(depth, 12)), n.Role)
		if n.TestTag != "" {
			fmt.Fprintf(&b, " tag=%q", n.TestTag)
		}
		if n.Text != "" {
			fmt.Fprintf(&b, " text=%q", n.Text)
		}
		if n.ContentDescription != "" {
			fmt.Fprintf(&b, " desc=%q", n.ContentDescription)
		}
		if n.Redacted {
			b.WriteString(" (redacted)")
		}
		fmt.Fprintf(&b, " box=(%d,%d)-(%d,%d)\n", n.Bounds.Left, n.Bounds.Top, n.Bounds.Right, n.Bounds.Bottom)
	}
	return b.String()
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func (t *toolset) captureScreen() server.ServerTool {
	tool := mcp.NewTool("fixthis_capture_screen",
		mcp.WithDescription("Capture the device's current screen with a summary of its UI tree, to check a fix. "+
			"Works where the FixThis app runs a device layer (its /mcp endpoint), not in the stdio sidecar."),
		mcp.WithTitleAnnotation("Capture current screen"),
		mcp.WithString("serial", mcp.MaxLength(200), mcp.Description("Device serial; the app's selected device when empty.")),
		mcp.WithReadOnlyHintAnnotation(true),
		mcp.WithDestructiveHintAnnotation(false),
		mcp.WithIdempotentHintAnnotation(false),
		mcp.WithOpenWorldHintAnnotation(true),
		mcp.WithOutputSchema[captureOut](),
	)
	return server.ServerTool{Tool: tool, Handler: func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if t.deps.Device == nil {
			return mcp.NewToolResultError("DEVICE_NOT_AVAILABLE: no device layer in this process (the stdio sidecar only reads the " +
				"feedback store); capture through the running FixThis app's /mcp endpoint, or look at the device yourself"), nil
		}
		c, err := t.deps.Device.CaptureScreen(ctx, strings.TrimSpace(req.GetString("serial", "")))
		if err != nil {
			return mcp.NewToolResultError(fmt.Sprintf("DEVICE_NOT_AVAILABLE: capture failed: %v", err)), nil
		}
		var extra []mcp.Content
		if c.Frame != nil {
			img, _ := frameContent(c.Frame, "screenshot")
			extra = append(extra, img)
		}
		return structured(captureOut{Serial: c.Serial, Package: c.Package, Activity: c.Activity, Fingerprint: c.Fingerprint,
			Width: c.Width, Height: c.Height, Tree: c.Tree}, extra...)
	}}
}

package mcp

import (
	"context"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"fixthis/app/agentdevice"
	"fixthis/app/display"
)

// Display tools: an agent checks a fix under the conditions the user saw the bug in
// (dark theme, a large font, another display size, a right-to-left language, slow
// animations) and puts the phone back afterwards.

// DisplayDevice changes and restores the phone's display settings.
type DisplayDevice interface {
	SetDisplay(ctx context.Context, serial string, c display.Change) (*agentdevice.DisplayResult, error)
	RestoreDisplay(ctx context.Context, serial string) (*agentdevice.DisplayResult, error)
}

var _ DisplayDevice = (*agentdevice.Phone)(nil)

func displayHints() []mcp.ToolOption { return restorableHints[agentdevice.DisplayResult]() }

// restorableHints are the annotations of a tool that changes a phone setting
// FixThis keeps and puts back (display conditions, window sizes), answering T.
func restorableHints[T any]() []mcp.ToolOption {
	return []mcp.ToolOption{
		hints{idempotent: true, openWorld: true}.option(), // not destructive: every change is restored
		mcp.WithOutputSchema[T](),
	}
}

// deviceAs is deviceTool for a tool that needs more of the device than Device offers
// (display settings, window sizes): run gets the device as D, or the call is refused
// with cannot.
func deviceAs[D any](t *toolset, cannot string, run func(ctx context.Context, d D, req mcp.CallToolRequest) (*mcp.CallToolResult, error)) server.ToolHandlerFunc {
	return t.deviceTool(func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		d, ok := t.deps.Device.(D)
		if !ok {
			return invalidArg("%s", cannot), nil
		}
		return run(ctx, d, req)
	})
}

// The refusals of a process whose device cannot change display settings or sizes.
const (
	cannotDisplay = "this process cannot change display settings"
	cannotSize    = "this process cannot change the phone's size"
)

func (t *toolset) setDisplay() server.ServerTool {
	tool := mcp.NewTool("fixthis_set_display",
		append([]mcp.ToolOption{
			mcp.WithDescription("Change the phone's display conditions to check a fix under them: dark theme, font scale, display density, " +
				"the app's language (BCP 47 tag, right-to-left ones mirror the layout; Android 13+) and animation speed. " +
				"Give only what to change. The phone's original values are saved on the first change; put them back with fixthis_restore_display. " +
				"An item's screen lists the conditions it was written under (its display: line)."),
			mcp.WithTitleAnnotation("Set display conditions"),
			serialArg(),
			mcp.WithBoolean("night", mcp.Description("Dark theme on (true) or off (false).")),
			mcp.WithNumber("fontScale", mcp.Min(display.MinFontScale), mcp.Max(display.MaxFontScale), mcp.Description("Font scale, 0.85 to 2.0 (1 is the default).")),
			mcp.WithInteger("density", mcp.Min(0), mcp.Max(2000), mcp.Description("Display density in dpi, 0.75 to 1.5 times the physical one; 0 resets it.")),
			mcp.WithString("locale", mcp.MaxLength(64), mcp.Description("The app's language as a BCP 47 tag (ar, he, de, pt-BR); empty follows the system.")),
			mcp.WithNumber("animationScale", mcp.Min(0), mcp.Max(display.MaxAnimation), mcp.Description("Animation duration scale: 0 off, 1 normal, 5 five times slower.")),
		}, displayHints()...)...)
	return server.ServerTool{Tool: tool, Handler: deviceAs(t, cannotDisplay, func(ctx context.Context, d DisplayDevice, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args := req.GetArguments()
		var c display.Change
		if _, ok := args["night"]; ok {
			v := req.GetBool("night", false)
			c.Night = &v
		}
		if _, ok := args["fontScale"]; ok {
			v := req.GetFloat("fontScale", 1)
			c.FontScale = &v
		}
		if _, ok := args["density"]; ok {
			v := req.GetInt("density", 0)
			c.Density = &v
		}
		if _, ok := args["locale"]; ok {
			v := strings.TrimSpace(req.GetString("locale", ""))
			c.Locale = &v
		}
		if _, ok := args["animationScale"]; ok {
			v := req.GetFloat("animationScale", 1)
			c.AnimationScale = &v
		}
		return answer(d.SetDisplay(ctx, serialOf(req), c))
	})}
}

func (t *toolset) restoreDisplay() server.ServerTool {
	tool := mcp.NewTool("fixthis_restore_display",
		append([]mcp.ToolOption{
			mcp.WithDescription("Put the phone's display settings back to what they were before FixThis first changed them."),
			mcp.WithTitleAnnotation("Restore display conditions"),
			serialArg(),
		}, displayHints()...)...)
	return server.ServerTool{Tool: tool, Handler: deviceAs(t, cannotDisplay, func(ctx context.Context, d DisplayDevice, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return answer(d.RestoreDisplay(ctx, serialOf(req)))
	})}
}

package mcp

import (
	"context"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"fixthis/app/agentdevice"
	"fixthis/app/display"
)

// Size tools: an agent checks a layout on a phone, an unfolded foldable and a
// tablet from the one phone in hand, and puts the phone's own size back.

// SizeDevice changes and resets the window size the phone renders at.
type SizeDevice interface {
	SetSize(ctx context.Context, serial string, p display.Preset) (*agentdevice.SizeResult, error)
	ResetSize(ctx context.Context, serial string) (*agentdevice.SizeResult, error)
}

var _ SizeDevice = (*agentdevice.Phone)(nil)

func sizeHints() []mcp.ToolOption { return restorableHints[agentdevice.SizeResult]() }

func (t *toolset) setSize() server.ServerTool {
	tool := mcp.NewTool("fixthis_set_size",
		append([]mcp.ToolOption{
			mcp.WithDescription("Show the app at another window size on the phone in hand, with Android's wm size and wm density: " +
				"phone (411×891 dp, compact), foldable (673×841 dp, medium) or tablet (1280×800 dp, expanded), or a custom widthDp×heightDp. " +
				"FixThis picks the pixels and density that reach the size, refuses one the phone cannot show, and brings the app back to the front. " +
				"The phone's own size is saved on the first change; put it back with fixthis_reset_size (fixthis_restore_display restores it too)."),
			mcp.WithTitleAnnotation("Set window size"),
			serialArg(),
			mcp.WithString("preset", mcp.Enum("phone", "foldable", "tablet", "custom"), mcp.Description("Which size; custom needs widthDp and heightDp.")),
			mcp.WithInteger("widthDp", mcp.Min(1), mcp.Max(display.MaxPresetDp), mcp.Description("Custom width in dp.")),
			mcp.WithInteger("heightDp", mcp.Min(1), mcp.Max(display.MaxPresetDp), mcp.Description("Custom height in dp.")),
			mcp.WithInteger("density", mcp.Min(display.MinForcedDensity), mcp.Max(2000), mcp.Description("Custom density in dpi; leave it out to let FixThis choose.")),
		}, sizeHints()...)...)
	return server.ServerTool{Tool: tool, Handler: deviceAs(t, cannotSize, func(ctx context.Context, d SizeDevice, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		p, res := presetArg(req)
		if res != nil {
			return res, nil
		}
		return answer(d.SetSize(ctx, serialOf(req), p))
	})}
}

// presetArg reads the preset a call names, or the refusal to answer with.
func presetArg(req mcp.CallToolRequest) (display.Preset, *mcp.CallToolResult) {
	args := req.GetArguments()
	name := strings.TrimSpace(req.GetString("preset", ""))
	_, hasW := args["widthDp"]
	_, hasH := args["heightDp"]
	if name == "" && (hasW || hasH) {
		name = "custom"
	}
	if name != "custom" {
		if hasW || hasH {
			return display.Preset{}, invalidArg("widthDp and heightDp go with preset custom")
		}
		p, ok := display.PresetNamed(name)
		if !ok {
			return display.Preset{}, invalidArg("name a preset: phone, foldable, tablet or custom")
		}
		return p, nil
	}
	if !hasW || !hasH {
		return display.Preset{}, invalidArg("a custom size needs widthDp and heightDp")
	}
	p := display.Preset{Name: "custom", WidthDp: req.GetInt("widthDp", 0), HeightDp: req.GetInt("heightDp", 0)}
	if _, ok := args["density"]; ok {
		p.Density = req.GetInt("density", 0)
		if p.Density == 0 {
			return display.Preset{}, invalidArg("density 0 is no density: give %d to 2000 dpi, or leave it out", display.MinForcedDensity)
		}
	}
	return p, nil
}

func (t *toolset) resetSize() server.ServerTool {
	tool := mcp.NewTool("fixthis_reset_size",
		append([]mcp.ToolOption{
			mcp.WithDescription("Put back the window size and density the phone had before FixThis first changed them, and bring the app back to the front."),
			mcp.WithTitleAnnotation("Reset window size"),
			serialArg(),
		}, sizeHints()...)...)
	return server.ServerTool{Tool: tool, Handler: deviceAs(t, cannotSize, func(ctx context.Context, d SizeDevice, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return answer(d.ResetSize(ctx, serialOf(req)))
	})}
}

package mcp

import (
	"context"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"fixthis/app/agentdevice"
	"fixthis/app/display"
	"fixthis/app/errcode"
)

// SizeChecker checks an item's node on several window sizes of the phone in hand.
type SizeChecker interface {
	CheckSizes(ctx context.Context, serial, sessionID, itemID string, presets []display.Preset) (*agentdevice.CheckSizesResult, error)
}

var _ SizeChecker = (*agentdevice.Phone)(nil)

func (t *toolset) checkSizes() server.ServerTool {
	tool := mcp.NewTool("fixthis_check_sizes", append([]mcp.ToolOption{
		mcp.WithDescription("Check a feedback item's node on other window sizes of the phone in hand: FixThis shows each size " +
			"(phone 411×891 dp, foldable 673×841 dp, tablet 1280×800 dp by default), waits for the screen to settle, captures it and " +
			"finds the item's node again. Per size: found or not, its bounds, whether it is clipped at the screen's edge or cut off by its container, what overlaps it, " +
			"the kept capture, and imageUrl / cropUrl: the whole screen and the node at that size on the console API. The check is stored on the item " +
			"(a newer one replaces it) and fixthis_read_feedback carries it. The phone's own size is put back at the end. Use it to check a layout fix on every size."),
		mcp.WithTitleAnnotation("Check on sizes"),
		serialArg(),
		mcp.WithString("sessionId", mcp.MaxLength(128), mcp.Description("The item's session (optional: item ids are unique).")),
		mcp.WithString("itemId", mcp.Required(), mcp.MaxLength(128), mcp.Description("The feedback item whose node to check.")),
		mcp.WithArray("sizes", mcp.MaxItems(agentdevice.MaxCheckSizes), mcp.WithStringItems(mcp.MaxLength(32)),
			mcp.Description("Sizes to check: phone, foldable, tablet, or a custom WIDTHxHEIGHT in dp (700x900, or 700x900@320 with a density). Default: the three presets.")),
	}, restorableHints[agentdevice.CheckSizesResult]()...)...)
	return server.ServerTool{Tool: tool, Handler: deviceAs(t, cannotSize, func(ctx context.Context, d SizeChecker, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		presets, err := parseSizes(req.GetStringSlice("sizes", nil))
		if err != nil {
			return toolResult(err)
		}
		return answer(d.CheckSizes(ctx, serialOf(req),
			strings.TrimSpace(req.GetString("sessionId", "")), strings.TrimSpace(req.GetString("itemId", "")), presets))
	})}
}

// parseSizes reads the sizes a check names: a preset's name, or WxH[@DENSITY] in dp.
func parseSizes(in []string) ([]display.Preset, error) {
	if len(in) > agentdevice.MaxCheckSizes {
		return nil, errcode.New(errcode.OutOfRange, "%d sizes is too many for one check: at most %d", len(in), agentdevice.MaxCheckSizes)
	}
	out := make([]display.Preset, 0, len(in))
	for _, s := range in {
		s = strings.TrimSpace(s)
		if p, ok := display.PresetNamed(s); ok {
			out = append(out, p)
			continue
		}
		dims, dens, hasDens := strings.Cut(s, "@")
		ws, hs, ok := strings.Cut(strings.ToLower(dims), "x")
		w, errW := strconv.Atoi(ws)
		h, errH := strconv.Atoi(hs)
		p := display.Preset{Name: "custom " + dims, WidthDp: w, HeightDp: h}
		var errD error
		if hasDens {
			p.Density, errD = strconv.Atoi(dens)
			if errD == nil && p.Density == 0 {
				return nil, errcode.New(errcode.OutOfRange, "size %s: density 0 is no density; give %d to 2000 dpi or leave it out", errcode.Quote(s), display.MinForcedDensity)
			}
		}
		if !ok || errW != nil || errH != nil || errD != nil {
			return nil, errcode.New(errcode.InvalidInput, "size %s is neither phone, foldable, tablet nor WIDTHxHEIGHT in dp", errcode.Quote(s))
		}
		if err := p.Check(); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

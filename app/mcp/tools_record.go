package mcp

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"fixthis/app/errcode"
)

// ScreenRecorder records the device's screen for some seconds from now and keeps the
// clip. Only the running app has one: it holds the live screen.
type ScreenRecorder interface {
	RecordScreen(ctx context.Context, serial string, seconds int) (*RecordedClip, error)
}

// RecordedClip is what fixthis_record_screen returns: the clip's files (absolute
// paths), its size and its timeline in words; the strip comes as an image.
type RecordedClip struct {
	ClipID         string `json:"clipId"`
	Serial         string `json:"serial"`
	Source         string `json:"source"` // h264 (the live video) | jpeg (raw frames)
	DurationMs     int64  `json:"durationMs"`
	Frames         int    `json:"frames"`
	Width          int    `json:"width"`
	Height         int    `json:"height"`
	Path           string `json:"path"`
	FrameStripPath string `json:"frameStripPath,omitempty"`
	Stalls         int    `json:"stalls"`
	LongestStallMs int64  `json:"longestStallMs"`
	Timeline       string `json:"timeline"`
	Strip          []byte `json:"-"`
}

// Limits of fixthis_record_screen's seconds.
const (
	minRecordSeconds = 1
	maxRecordSeconds = 30
)

func (t *toolset) recordScreen() server.ServerTool {
	tool := mcp.NewTool("fixthis_record_screen",
		mcp.WithDescription("Record the device's screen for 1–30 seconds from now, to capture a repro or check a fix that moves "+
			"(an animation, a transition, jank). Do the input while it records (call it without waiting, or record after a tap). "+
			"Returns the MP4's path, a frame strip image (8 moments labelled with their time) and a timeline of which pictures "+
			"changed and where the screen stalled. Reading the screen needs no control permission; the recording shows in the "+
			"user's activity list."),
		mcp.WithTitleAnnotation("Record the screen"),
		mcp.WithInteger("seconds", mcp.Required(), mcp.Min(minRecordSeconds), mcp.Max(maxRecordSeconds),
			mcp.Description("How long to record, 1–30.")),
		serialArg(),
		hints{readOnly: true, openWorld: true}.option(),
		mcp.WithOutputSchema[RecordedClip](),
	)
	return server.ServerTool{Tool: tool, Handler: func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if res, handled, err := t.forward(ctx, req); handled {
			return res, err
		}
		if t.deps.Recorder == nil {
			return toolResult(errcode.New(errcode.ClipUnavailable,
				"recording the screen needs the running FixThis app, which holds the live screen; start it (fixthis) and call again"))
		}
		secs := req.GetInt("seconds", 0)
		if secs < minRecordSeconds || secs > maxRecordSeconds {
			return toolResult(errcode.New(errcode.OutOfRange, "seconds must be %d–%d, got %d", minRecordSeconds, maxRecordSeconds, secs))
		}
		c, err := t.deps.Recorder.RecordScreen(ctx, serialOf(req), secs)
		if err != nil {
			return toolResult(err)
		}
		var extra []mcp.Content
		if len(c.Strip) > 0 {
			img, _ := imageContent(c.Strip, "frame strip")
			extra = append(extra, img)
		}
		return structured(c, extra...)
	}}
}

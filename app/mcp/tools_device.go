package mcp

import (
	"context"
	"errors"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"fixthis/app/agentdevice"
	"fixthis/app/errcode"
	"fixthis/app/store"
	"fixthis/capture"
)

// Device tools: an agent looks at the phone and drives it to check its fix. In the
// stdio sidecar each call goes to the running app first (one device selection, one
// preview); without the app the sidecar drives the device over adb itself.

type captureOut struct {
	CaptureID   string `json:"captureId"`
	Serial      string `json:"serial"`
	Package     string `json:"package"`
	Activity    string `json:"activity"`
	Fingerprint string `json:"fingerprint"`
	Width       int    `json:"width"`
	Height      int    `json:"height"`
	// Orientation, rotation and the window list, as the console's freeze reports them.
	capture.Display
	// Conditions are the display settings the screen was drawn under (dark theme,
	// font scale, density, the app's locale, animation speed), only what differs
	// from the phone's defaults; absent when they could not be read.
	Conditions *store.DisplayConditions `json:"conditions,omitempty"`
	// ConditionsLine is Conditions as an item's display: line writes them.
	ConditionsLine string `json:"conditionsLine"`
	Tree           string `json:"tree"`
}

// deviceTool runs handler on this process's device, after offering the call to the
// running app when this is the sidecar.
func (t *toolset) deviceTool(handler func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error)) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if res, handled, err := t.forward(ctx, req); handled {
			return res, err
		}
		if t.deps.Device == nil {
			return mcp.NewToolResultError(errcode.New(errcode.DeviceNotAvailable,
				"no device layer in this process and no FixThis app to forward to").Error()), nil
		}
		return handler(ctx, req)
	}
}

// forward offers a call to the running app when this process is the sidecar.
// handled is false when there is no app to forward to, so the caller answers itself.
func (t *toolset) forward(ctx context.Context, req mcp.CallToolRequest) (res *mcp.CallToolResult, handled bool, err error) {
	if t.deps.Forward == nil {
		return nil, false, nil
	}
	res, err = t.deps.Forward(ctx, req)
	if errors.Is(err, ErrAppNotRunning) {
		return nil, false, nil
	}
	return res, true, err
}

// serialOf is the serial a call names (serialArg), "" for the default device.
func serialOf(req mcp.CallToolRequest) string { return strings.TrimSpace(req.GetString("serial", "")) }

func serialArg() mcp.ToolOption {
	return mcp.WithString("serial", mcp.MaxLength(200),
		mcp.Description("Device serial; by default the app's selected device, else the only one connected, else the one the console last selected."))
}

// actionHints: input reaches the app under test and may change its data (a tap on
// "Delete" deletes), so the hints say destructive and not idempotent.
func actionHints() []mcp.ToolOption {
	return []mcp.ToolOption{
		hints{destructive: true, openWorld: true}.option(),
		mcp.WithOutputSchema[agentdevice.ActionResult](),
	}
}

func (t *toolset) captureScreen() server.ServerTool {
	tool := mcp.NewTool("fixthis_capture_screen",
		mcp.WithDescription("Capture the device's current screen with a summary of its UI tree, to check a fix. "+
			"Returns a captureId: pass it to fixthis_resolve_feedback as verification, or with a node uid to fixthis_tap."),
		mcp.WithTitleAnnotation("Capture current screen"),
		serialArg(),
		hints{readOnly: true, openWorld: true}.option(),
		mcp.WithOutputSchema[captureOut](),
	)
	return server.ServerTool{Tool: tool, Handler: t.deviceTool(func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		c, err := t.deps.Device.Capture(ctx, serialOf(req))
		if err != nil {
			return toolResult(err)
		}
		var extra []mcp.Content
		switch {
		case c.Frame != nil:
			img, _ := frameContent(c.Frame, "screenshot")
			extra = append(extra, img)
		case len(c.PNG) > 0:
			img, _ := imageContent(c.PNG, "screenshot")
			extra = append(extra, img)
		}
		return structured(captureOut{CaptureID: c.CaptureID, Serial: c.Serial, Package: c.Package, Activity: c.Activity,
			Fingerprint: c.Fingerprint, Width: c.Width, Height: c.Height, Display: c.Display, Conditions: c.Conditions, ConditionsLine: c.Conditions.Line(), Tree: c.Tree}, extra...)
	})}
}

func nodeArgs() []mcp.ToolOption {
	return []mcp.ToolOption{
		mcp.WithString("uid", mcp.MaxLength(200), mcp.Description("A node uid from a capture's tree (needs captureId).")),
		mcp.WithString("captureId", mcp.MaxLength(200), mcp.Description("The capture the uid comes from.")),
		mcp.WithString("text", mcp.MaxLength(2000), mcp.Description("Visible text of the node on the current screen.")),
		mcp.WithString("contentDescription", mcp.MaxLength(2000), mcp.Description("Content description of the node on the current screen.")),
		mcp.WithString("resourceId", mcp.MaxLength(500), mcp.Description("Resource id or test tag of the node on the current screen.")),
	}
}

func selectorFrom(req mcp.CallToolRequest) *agentdevice.NodeSelector {
	s := agentdevice.NodeSelector{
		CaptureID: req.GetString("captureId", ""), UID: req.GetString("uid", ""), Text: req.GetString("text", ""),
		ContentDescription: req.GetString("contentDescription", ""), ResourceID: req.GetString("resourceId", ""),
	}
	if s == (agentdevice.NodeSelector{}) {
		return nil
	}
	return &s
}

func optInt(req mcp.CallToolRequest, name string) *int {
	if _, ok := req.GetArguments()[name]; !ok {
		return nil
	}
	v := req.GetInt(name, 0)
	return &v
}

func (t *toolset) act(kind string, build func(mcp.CallToolRequest) (agentdevice.Action, *mcp.CallToolResult)) server.ToolHandlerFunc {
	return t.deviceTool(func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		a, bad := build(req)
		if bad != nil {
			return bad, nil
		}
		a.Kind = kind
		return answer(t.deps.Device.Act(ctx, serialOf(req), a))
	})
}

func (t *toolset) tap() server.ServerTool {
	tool := mcp.NewTool("fixthis_tap",
		append(append([]mcp.ToolOption{
			mcp.WithDescription("Tap the device: a node (uid with captureId, or text / contentDescription / resourceId found on the current screen) or x,y in device pixels."),
			mcp.WithTitleAnnotation("Tap the device"),
			serialArg(),
			mcp.WithInteger("x", mcp.Min(0), mcp.Max(100000), mcp.Description("X in device pixels (with y).")),
			mcp.WithInteger("y", mcp.Min(0), mcp.Max(100000), mcp.Description("Y in device pixels (with x).")),
		}, nodeArgs()...), actionHints()...)...)
	return server.ServerTool{Tool: tool, Handler: t.act("tap", func(req mcp.CallToolRequest) (agentdevice.Action, *mcp.CallToolResult) {
		a := agentdevice.Action{Target: selectorFrom(req), X: optInt(req, "x"), Y: optInt(req, "y")}
		if a.Target == nil && (a.X == nil || a.Y == nil) {
			return a, invalidArg("name a node (uid+captureId, text, contentDescription or resourceId) or give x and y")
		}
		return a, nil
	})}
}

func (t *toolset) swipe() server.ServerTool {
	tool := mcp.NewTool("fixthis_swipe",
		append([]mcp.ToolOption{
			mcp.WithDescription("Swipe on the device: a direction (the content moves that way: up scrolls down a list) or from x,y to x2,y2."),
			mcp.WithTitleAnnotation("Swipe the device"),
			serialArg(),
			mcp.WithString("direction", mcp.Enum("up", "down", "left", "right"), mcp.Description("Swipe direction, from the screen's middle.")),
			mcp.WithInteger("x", mcp.Min(0), mcp.Max(100000)), mcp.WithInteger("y", mcp.Min(0), mcp.Max(100000)),
			mcp.WithInteger("x2", mcp.Min(0), mcp.Max(100000)), mcp.WithInteger("y2", mcp.Min(0), mcp.Max(100000)),
			mcp.WithInteger("durationMs", mcp.Min(10), mcp.Max(10000), mcp.Description("Gesture length (default 300 ms).")),
		}, actionHints()...)...)
	return server.ServerTool{Tool: tool, Handler: t.act("swipe", func(req mcp.CallToolRequest) (agentdevice.Action, *mcp.CallToolResult) {
		a := agentdevice.Action{Direction: req.GetString("direction", ""), X: optInt(req, "x"), Y: optInt(req, "y"),
			X2: optInt(req, "x2"), Y2: optInt(req, "y2"), DurationMillis: req.GetInt("durationMs", 300)}
		if a.Direction == "" && (a.X == nil || a.Y == nil || a.X2 == nil || a.Y2 == nil) {
			return a, invalidArg("give a direction, or x, y, x2 and y2")
		}
		return a, nil
	})}
}

func (t *toolset) typeText() server.ServerTool {
	tool := mcp.NewTool("fixthis_type_text",
		append([]mcp.ToolOption{
			mcp.WithDescription("Type text into the focused field on the device (tap the field first)."),
			mcp.WithTitleAnnotation("Type text"),
			serialArg(),
			mcp.WithString("text", mcp.Required(), mcp.MinLength(1), mcp.MaxLength(2000)),
		}, actionHints()...)...)
	return server.ServerTool{Tool: tool, Handler: t.act("type", func(req mcp.CallToolRequest) (agentdevice.Action, *mcp.CallToolResult) {
		return agentdevice.Action{Text: req.GetString("text", "")}, nil
	})}
}

func (t *toolset) pressKey() server.ServerTool {
	tool := mcp.NewTool("fixthis_press_key",
		append([]mcp.ToolOption{
			mcp.WithDescription("Press a key on the device: BACK, HOME, ENTER, DEL, APP_SWITCH, TAB, DPAD_UP/DOWN/LEFT/RIGHT, or any KEYCODE_ name."),
			mcp.WithTitleAnnotation("Press a key"),
			serialArg(),
			mcp.WithString("key", mcp.Required(), mcp.MinLength(1), mcp.MaxLength(64)),
		}, actionHints()...)...)
	return server.ServerTool{Tool: tool, Handler: t.act("key", func(req mcp.CallToolRequest) (agentdevice.Action, *mcp.CallToolResult) {
		return agentdevice.Action{Key: req.GetString("key", "")}, nil
	})}
}

func (t *toolset) launchApp() server.ServerTool {
	tool := mcp.NewTool("fixthis_launch_app",
		mcp.WithDescription("Bring an app to the front (its launcher activity), by default the app the feedback session was made on. It does not rebuild."),
		mcp.WithTitleAnnotation("Bring the app to the front"),
		serialArg(),
		mcp.WithString("package", mcp.MaxLength(300), mcp.Description("Package name; the session's app when empty.")),
		hints{idempotent: true, openWorld: true}.option(),
		mcp.WithOutputSchema[agentdevice.ActionResult](),
	)
	return server.ServerTool{Tool: tool, Handler: t.act("launch", func(req mcp.CallToolRequest) (agentdevice.Action, *mcp.CallToolResult) {
		return agentdevice.Action{Package: req.GetString("package", "")}, nil
	})}
}

func (t *toolset) waitForScreen() server.ServerTool {
	tool := mcp.NewTool("fixthis_wait_for_screen",
		append([]mcp.ToolOption{
			mcp.WithDescription("Wait until the screen shows a text or a node, or until its fingerprint differs from fingerprintNot (the screen changed), or the timeout."),
			mcp.WithTitleAnnotation("Wait for the screen"),
			serialArg(),
			mcp.WithString("fingerprintNot", mcp.MaxLength(200), mcp.Description("Return when the screen's fingerprint is no longer this one.")),
			mcp.WithInteger("timeoutMs", mcp.Min(100), mcp.Max(50000), mcp.Description("Give up after this long (default 10000).")),
			hints{readOnly: true, idempotent: true, openWorld: true}.option(),
			mcp.WithOutputSchema[agentdevice.WaitResult](),
		}, nodeArgs()...)...)
	return server.ServerTool{Tool: tool, Handler: t.deviceTool(func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		cond := agentdevice.ScreenCondition{Node: selectorFrom(req), FingerprintNot: req.GetString("fingerprintNot", ""),
			TimeoutMillis: req.GetInt("timeoutMs", 10000)}
		if cond.Node != nil && cond.Node.UID != "" {
			return invalidArg("a uid names a node of an old capture; wait for its text, contentDescription or resourceId"), nil
		}
		if cond.Node != nil && cond.Node.ContentDescription == "" && cond.Node.ResourceID == "" {
			cond.Text, cond.Node = cond.Node.Text, nil
		}
		if cond.Node == nil && cond.Text == "" && cond.FingerprintNot == "" {
			return invalidArg("wait for something: text, a node, or fingerprintNot"), nil
		}
		return answer(t.deps.Device.WaitForScreen(ctx, serialOf(req), cond))
	})}
}

package mcp

import (
	"context"
	"errors"

	"github.com/mark3labs/mcp-go/mcp"

	"fixthis/app/agentdevice"
	"fixthis/app/targetrun"
)

// Device is the phone as the device tools drive it. The running app serves it from
// its device service; the stdio sidecar from its own adb connection.
type Device interface {
	// Capture takes the current screen with its UI tree and keeps it, so a later
	// call (a verified resolve) can refer to it by CaptureID.
	Capture(ctx context.Context, serial string) (*agentdevice.Capture, error)
	// Act performs one input action and says what it did.
	Act(ctx context.Context, serial string, a agentdevice.Action) (*agentdevice.ActionResult, error)
	// WaitForScreen polls the screen until cond holds or ctx ends.
	WaitForScreen(ctx context.Context, serial string, cond agentdevice.ScreenCondition) (*agentdevice.WaitResult, error)
}

// Forwarder hands a tool call to the running FixThis app, so the sidecar and the app
// share one device selection and one preview. It answers ErrAppNotRunning when no app
// serves this project; the sidecar then drives the device itself.
type Forwarder func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error)

// ErrAppNotRunning means no FixThis app answers for the project.
var ErrAppNotRunning = errors.New("the FixThis app is not running for this project")

// AppRunner builds, installs and launches the project's app on a device, through the
// same code as `fixthis run`, reporting progress as it goes.
type AppRunner interface {
	RunApp(ctx context.Context, serial string, in agentdevice.RunAppInput, progress func(targetrun.Progress)) (*targetrun.Result, error)
}

// agentdevice.Phone is the device and the runner of both the app and the sidecar.
var (
	_ Device    = (*agentdevice.Phone)(nil)
	_ AppRunner = (*agentdevice.Phone)(nil)
)

package mcp

import (
	"context"
	"errors"

	"github.com/mark3labs/mcp-go/mcp"
)

// Device is the phone as the device tools drive it. The running app serves it from
// its device service; the stdio sidecar from its own adb connection.
type Device interface {
	// Capture takes the current screen with its UI tree and keeps it, so a later
	// call (a verified resolve) can refer to it by CaptureID.
	Capture(ctx context.Context, serial string) (*Capture, error)
	// Act performs one input action and says what it did.
	Act(ctx context.Context, serial string, a Action) (*ActionResult, error)
	// WaitForScreen polls the screen until cond holds or ctx ends.
	WaitForScreen(ctx context.Context, serial string, cond ScreenCondition) (*WaitResult, error)
}

// Forwarder hands a tool call to the running FixThis app, so the sidecar and the app
// share one device selection and one preview. It answers ErrAppNotRunning when no app
// serves this project; the sidecar then drives the device itself.
type Forwarder func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error)

// ErrAppNotRunning means no FixThis app answers for the project.
var ErrAppNotRunning = errors.New("the FixThis app is not running for this project")

// Action is one input action on the device.
type Action struct {
	Kind string `json:"kind"` // tap | swipe | type | key | launch

	// Tap: a node (by capture uid, or visible text / contentDescription / resourceId
	// on the current screen) or X, Y in device pixels.
	Target *NodeSelector `json:"target,omitempty"`
	X, Y   *int

	// Swipe: a direction (up, down, left, right) or two points.
	Direction      string
	X2, Y2         *int
	DurationMillis int

	Text string // type
	Key  string // key: BACK, HOME, ENTER, DEL, APP_SWITCH, … or a KEYCODE_ name
	// Package to launch; empty for the session's app.
	Package string
}

// NodeSelector names a node: UID with the CaptureID it came from, or what the screen
// shows now.
type NodeSelector struct {
	CaptureID          string `json:"captureId,omitempty"`
	UID                string `json:"uid,omitempty"`
	Text               string `json:"text,omitempty"`
	ContentDescription string `json:"contentDescription,omitempty"`
	ResourceID         string `json:"resourceId,omitempty"`
}

// ActionResult says what an action did, in the words the console's activity shows.
type ActionResult struct {
	Serial string `json:"serial"`
	Detail string `json:"detail"` // "tapped 'Save' at (540, 1620)"
	X      int    `json:"x,omitempty"`
	Y      int    `json:"y,omitempty"`
}

// ScreenCondition is what fixthis_wait_for_screen waits for: a text or a node on the
// screen, or a fingerprint other than a known one.
type ScreenCondition struct {
	Text            string
	Node            *NodeSelector
	FingerprintNot  string
	TimeoutMillis   int
	PollEveryMillis int
}

// WaitResult is the screen when the wait ended.
type WaitResult struct {
	Met         bool   `json:"met"`
	Serial      string `json:"serial"`
	Fingerprint string `json:"fingerprint"`
	Activity    string `json:"activity"`
	WaitedMs    int64  `json:"waitedMs"`
	Reason      string `json:"reason"` // what matched, or why it timed out
}

// AppRunner builds, installs and launches the project's app on a device, through the
// same code as `fixthis run`, reporting progress as it goes.
type AppRunner interface {
	RunApp(ctx context.Context, serial string, in RunAppInput, progress func(RunProgress)) (*RunAppResult, error)
}

// RunAppInput is what fixthis_run_app was asked.
type RunAppInput struct {
	Module    string
	Variant   string
	NoBuild   bool
	Reinstall bool
}

// RunProgress is one step of a run: a stage, a line for a person, and how far.
type RunProgress struct {
	Stage    string
	Message  string
	Fraction float64
}

// RunAppResult is the app in front after a run.
type RunAppResult struct {
	ApplicationID string   `json:"applicationId"`
	Serial        string   `json:"serial"`
	Built         bool     `json:"built"`
	Installed     bool     `json:"installed"`
	LaunchMs      int      `json:"launchMs"`
	Foreground    bool     `json:"foreground"`
	Notes         []string `json:"notes,omitempty"`
}

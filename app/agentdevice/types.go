package agentdevice

import (
	"image"

	"fixthis/app/store"
	"fixthis/capture"
)

// The phone's domain types: what an agent asks of the device and what it answers.
// The MCP tools build them from a call's arguments and shape them into the tools'
// output; a build run's progress and result are targetrun's own Progress and Result.

// Capture is one captured screen, kept in the store under CaptureID.
type Capture struct {
	CaptureID   string
	Serial      string
	Package     string
	Activity    string
	Fingerprint string
	Width       int
	Height      int
	// PNG is the full-resolution frame; it is downscaled before it is sent.
	PNG []byte
	// Frame, when the capture was taken in this process, is the same frame decoded:
	// the image for the agent is scaled from it instead of decoding PNG again.
	Frame image.Image
	// Tree is a short text summary of the UI tree (one node per line); Nodes is
	// the tree itself, for a check that looks a node up again.
	Tree  string
	Nodes []capture.Node
	// Orientation, rotation and the window list, as the console's freeze reports them.
	Display capture.Display
	// Conditions are the display settings the screen was drawn under (nil: unknown).
	Conditions *store.DisplayConditions
}

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

// locator is the selector as capture.FindNode reads it. A resource id there matches
// the full id, its name after ":id/", or a test tag.
func (s NodeSelector) locator() capture.Locator {
	return capture.Locator{UID: s.UID, ResourceID: s.ResourceID, ContentDescription: s.ContentDescription, Text: s.Text}
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

// RunAppInput is what fixthis_run_app was asked.
type RunAppInput struct {
	Module    string
	Variant   string
	NoBuild   bool
	Reinstall bool
}

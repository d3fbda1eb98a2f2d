// Package agentdevice is the phone as an agent drives it through the MCP device
// tools: captures it keeps by id, taps, swipes, text, keys, launching the app and
// waiting for a screen. Every action asks whether the user lets agents control that
// device and is written to the store, where the console shows it as activity. The
// running app and the stdio sidecar both use it; they differ only in how they pick
// the device.
package agentdevice

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"fixthis/adb"
	"fixthis/app/device"
	"fixthis/app/display"
	"fixthis/app/errcode"
	"fixthis/app/store"
	"fixthis/app/targetrun"
	"fixthis/capture"
)

// Target is the device a call runs on.
type Target struct {
	Serial string
	Model  string
	Demo   bool // the built-in demo device: agents may control it without asking
}

// Options configure a Phone.
type Options struct {
	ADB      *adb.Client
	Capturer *device.Capturer
	Store    *store.Store
	// Pick turns the serial a tool names ("" for the default) into an online device.
	Pick func(ctx context.Context, serial string) (Target, error)
	// AfterAction is told that serial was driven (the app wakes its live preview).
	AfterAction func(serial string)
	// ScreenKept, where the app runs, is told of every screen an agent captured, as
	// of the console's freezes: it starts what follows a frozen screen (the app's
	// source index, its WebView's requests). Nil in a sidecar.
	ScreenKept func(*device.KeptScreen)
	// ProjectDir is the Android project fixthis_run_app builds.
	ProjectDir string
	// TrackRun, where the app runs, takes its one run slot for fixthis_run_app: the
	// console then shows the agent's build as its own, and a build the user started
	// and one the agent started never run at once. progress and finish report the run
	// (finish exactly once). Nil in a sidecar without the app.
	TrackRun func() (progress func(targetrun.Progress), finish func(targetrun.Result, error), err error)
	// AskTimeout is how long an action waits for the user to allow control.
	AskTimeout time.Duration
	Log        *slog.Logger
	// Display changes and restores the display settings (nil: the display tools
	// answer that they are not available); DisplayTarget, where the app runs, is
	// its one way to name the phone (with its SDK) and the app whose locale they
	// set (nil, or no app named: the app of the newest session screen).
	Display       *display.Manager
	DisplayTarget func(ctx context.Context, serial string) (display.Target, error)
}

// Phone is the device the MCP tools drive (their Device and AppRunner).
type Phone struct{ o Options }

// New returns a Phone.
func New(o Options) *Phone {
	if o.AskTimeout <= 0 {
		o.AskTimeout = 20 * time.Second
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	return &Phone{o: o}
}

// Capture takes the screen and its tree and keeps them in the store.
func (p *Phone) Capture(ctx context.Context, serial string) (*Capture, error) {
	return p.capture(ctx, serial, true)
}

// capture is Capture; logged says whether it goes in the agents' activity list (a
// capture the user's own size check takes does not).
func (p *Phone) capture(ctx context.Context, serial string, logged bool) (*Capture, error) {
	t, err := p.o.Pick(ctx, serial)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	// Kept the way the console's freezes are: the conditions read beside the capture.
	screen, err := device.Keep(ctx, p.o.Capturer, t.Serial, "", p.conditions)
	if err != nil {
		return nil, errcode.Wrap(errcode.CaptureFailed, err, "capture %s: %v", t.Serial, err)
	}
	if p.o.ScreenKept != nil {
		p.o.ScreenKept(screen)
	}
	snap, cond := screen.Snapshot, screen.Conditions
	png, err := screen.PNG()
	if err != nil {
		return nil, err
	}
	nodes, err := json.Marshal(snap.Nodes)
	if err != nil {
		return nil, err
	}
	kept, err := p.o.Store.SaveCapture(ctx, store.CaptureInput{Serial: t.Serial, Package: snap.State.Package,
		Activity: snap.State.Activity, Fingerprint: snap.Fingerprint.String(), Width: snap.Width, Height: snap.Height,
		PNG: png, NodesJSON: nodes, Conditions: cond})
	if err != nil {
		return nil, err
	}
	if logged {
		p.record(ctx, t.Serial, "capture", "captured the screen ("+shortActivity(snap.State.Activity)+")", "ok")
	}
	return &Capture{CaptureID: kept.CaptureID, Serial: t.Serial, Package: snap.State.Package,
		Activity: snap.State.Activity, Fingerprint: kept.Fingerprint, Width: snap.Width, Height: snap.Height,
		PNG: png, Frame: snap.Frame, Tree: TreeSummary(snap), Nodes: snap.Nodes, Display: snap.Display(), Conditions: cond}, nil
}

// Act performs one input action once the user allows control of the device.
func (p *Phone) Act(ctx context.Context, serial string, a Action) (*ActionResult, error) {
	t, err := p.o.Pick(ctx, serial)
	if err != nil {
		return nil, err
	}
	if err := checkAction(a); err != nil {
		p.record(ctx, t.Serial, a.Kind, a.Kind+" failed: "+firstLine(err.Error()), "failed")
		return nil, err
	}
	if err := p.allowed(ctx, t); err != nil {
		p.record(ctx, t.Serial, a.Kind, "was not allowed to "+a.Kind, "refused")
		return nil, err
	}
	res, err := p.act(ctx, t.Serial, a)
	if err != nil {
		p.record(ctx, t.Serial, a.Kind, a.Kind+" failed: "+firstLine(err.Error()), "failed")
		return nil, err
	}
	res.Serial = t.Serial
	p.record(ctx, t.Serial, a.Kind, res.Detail, "ok")
	if p.o.AfterAction != nil {
		p.o.AfterAction(t.Serial)
	}
	return res, nil
}

func (p *Phone) record(ctx context.Context, serial, action, detail, outcome string) {
	err := p.o.Store.RecordDeviceAction(context.WithoutCancel(ctx), store.DeviceAction{Serial: serial, Action: action,
		Detail: detail, Outcome: outcome})
	if err != nil {
		p.o.Log.Warn("record device action", "serial", serial, "err", err)
	}
}

// shell runs one device command and fails with its output when it exits non-zero.
func (p *Phone) shell(ctx context.Context, serial, cmd string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	res, err := p.o.ADB.Device(serial).Shell(ctx, cmd)
	if err != nil {
		return "", errcode.Wrap(errcode.DeviceNotAvailable, err, "%s on %s: %v", firstWord(cmd), serial, err)
	}
	out := string(res.Stdout) + string(res.Stderr)
	if res.ExitCode != 0 {
		return out, errcode.New(errcode.InputFailed, "%s on %s exited %d: %s", firstWord(cmd), serial, res.ExitCode, strings.TrimSpace(out))
	}
	return out, nil
}

func firstWord(s string) string {
	w, _, _ := strings.Cut(s, " ")
	return w
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

func shortActivity(a string) string {
	if i := strings.LastIndexAny(a, "./"); i >= 0 && i+1 < len(a) {
		return a[i+1:]
	}
	if a == "" {
		return "unknown activity"
	}
	return a
}

// TreeSummary is one line per meaningful node: enough for an agent to check a label,
// a tag or a position without the whole dump, and the uid to tap it by.
func TreeSummary(snap *capture.Snapshot) string {
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
		fmt.Fprintf(&b, "%s%s uid=%s", strings.Repeat("  ", min(depth, 12)), n.Role, n.UID)
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

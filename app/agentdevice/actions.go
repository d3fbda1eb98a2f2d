package agentdevice

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"fixthis/adb"
	"fixthis/app/errcode"
	"fixthis/capture"
)

func (p *Phone) act(ctx context.Context, serial string, a Action) (*ActionResult, error) {
	switch a.Kind {
	case "tap":
		return p.tap(ctx, serial, a)
	case "swipe":
		return p.swipe(ctx, serial, a)
	case "type":
		if _, err := p.shell(ctx, serial, adb.Command("input", "text", inputText(a.Text))); err != nil {
			return nil, err
		}
		return &ActionResult{Detail: fmt.Sprintf("typed %q", clip(a.Text, 40))}, nil
	case "key":
		key, err := keyCode(a.Key)
		if err != nil {
			return nil, err
		}
		if _, err := p.shell(ctx, serial, adb.Command("input", "keyevent", key)); err != nil {
			return nil, err
		}
		return &ActionResult{Detail: "pressed " + strings.TrimPrefix(key, "KEYCODE_")}, nil
	case "launch":
		return p.launch(ctx, serial, a.Package)
	}
	return nil, errcode.New(errcode.InvalidInput, "unknown action %q", a.Kind)
}

func (p *Phone) tap(ctx context.Context, serial string, a Action) (*ActionResult, error) {
	x, y, what := 0, 0, ""
	if a.Target != nil {
		n, err := p.resolve(ctx, serial, *a.Target)
		if err != nil {
			return nil, err
		}
		x, y = (n.Bounds.Left+n.Bounds.Right)/2, (n.Bounds.Top+n.Bounds.Bottom)/2
		what = " " + describe(n)
	} else {
		x, y = *a.X, *a.Y
	}
	if _, err := p.shell(ctx, serial, fmt.Sprintf("input tap %d %d", x, y)); err != nil {
		return nil, err
	}
	return &ActionResult{Detail: fmt.Sprintf("tapped%s at (%d, %d)", what, x, y), X: x, Y: y}, nil
}

func (p *Phone) swipe(ctx context.Context, serial string, a Action) (*ActionResult, error) {
	var x1, y1, x2, y2 int
	if a.Direction != "" {
		snap, err := p.o.Capturer.Glance(ctx, serial)
		if err != nil {
			return nil, errcode.Wrap(errcode.CaptureFailed, err, "read the screen size of %s: %v", serial, err)
		}
		w, h := snap.Width, snap.Height
		cx, cy := w/2, h/2
		switch a.Direction {
		case "up": // the content moves up: the finger goes from low to high
			x1, y1, x2, y2 = cx, h*7/10, cx, h*3/10
		case "down":
			x1, y1, x2, y2 = cx, h*3/10, cx, h*7/10
		case "left":
			x1, y1, x2, y2 = w*8/10, cy, w*2/10, cy
		case "right":
			x1, y1, x2, y2 = w*2/10, cy, w*8/10, cy
		default:
			return nil, errcode.New(errcode.InvalidInput, "direction must be up, down, left or right, not %q", a.Direction)
		}
	} else {
		x1, y1, x2, y2 = *a.X, *a.Y, *a.X2, *a.Y2
	}
	d := min(max(a.DurationMillis, 10), 10000)
	if _, err := p.shell(ctx, serial, fmt.Sprintf("input swipe %d %d %d %d %d", x1, y1, x2, y2, d)); err != nil {
		return nil, err
	}
	detail := fmt.Sprintf("swiped from (%d, %d) to (%d, %d)", x1, y1, x2, y2)
	if a.Direction != "" {
		detail = "swiped " + a.Direction
	}
	return &ActionResult{Detail: detail, X: x2, Y: y2}, nil
}

// launch brings pkg (or the session's app) to the front through its launcher
// intent, as tapping its icon would.
func (p *Phone) launch(ctx context.Context, serial, pkg string) (*ActionResult, error) {
	if pkg == "" {
		pkg = p.sessionPackage(ctx)
	}
	if pkg == "" {
		return nil, errcode.New(errcode.InvalidInput, "name the package to launch (no session screen says which app it is)")
	}
	if err := adb.CheckPackage(pkg); err != nil {
		return nil, errcode.Wrap(errcode.InvalidInput, err, "%v", err)
	}
	out, err := p.shell(ctx, serial, adb.Command("monkey", "-p", pkg, "-c", "android.intent.category.LAUNCHER", "1"))
	if err != nil {
		return nil, err
	}
	if strings.Contains(out, "No activities found") || strings.Contains(out, "monkey aborted") {
		return nil, errcode.New(errcode.InputFailed, "%s has no launcher activity on %s (is it installed?)", pkg, serial)
	}
	return &ActionResult{Detail: "launched " + pkg}, nil
}

// sessionPackage is the app of the newest saved screen in the most recently
// changed session: the app the user was annotating.
func (p *Phone) sessionPackage(ctx context.Context) string {
	sessions, err := p.o.Store.ListSessions(ctx)
	if err != nil || len(sessions) == 0 {
		return ""
	}
	newest := sessions[0]
	for _, s := range sessions {
		if s.UpdatedAt.After(newest.UpdatedAt) {
			newest = s
		}
	}
	sess, err := p.o.Store.GetSession(ctx, newest.SessionID)
	if err != nil {
		return ""
	}
	for i := len(sess.Screens) - 1; i >= 0; i-- {
		if sess.Screens[i].Package != "" {
			return sess.Screens[i].Package
		}
	}
	return ""
}

// resolve finds the node a selector names: in the capture it came from, or on the
// screen as it is now.
func (p *Phone) resolve(ctx context.Context, serial string, sel NodeSelector) (*capture.Node, error) {
	var nodes []capture.Node
	if sel.UID != "" {
		if sel.CaptureID == "" {
			return nil, errcode.New(errcode.InvalidInput, "a uid needs the captureId it comes from")
		}
		c, err := p.o.Store.GetCapture(ctx, sel.CaptureID)
		if err != nil {
			return nil, err
		}
		data, err := p.o.Store.ReadArtifact(ctx, c.NodesArtifact)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(data, &nodes); err != nil {
			return nil, fmt.Errorf("decode nodes of %s: %w", sel.CaptureID, err)
		}
	} else {
		snap, err := p.o.Capturer.Capture(ctx, serial)
		if err != nil {
			return nil, errcode.Wrap(errcode.CaptureFailed, err, "read the screen of %s: %v", serial, err)
		}
		nodes = snap.Nodes
	}
	if n := find(nodes, sel); n != nil {
		return n, nil
	}
	return nil, errcode.New(errcode.NodeNotFound, "no node on the screen matches %s; capture the screen to see what it shows", selectorText(sel))
}

// find returns the node the selector names (capture.FindNode): by its one key, and
// only a node on screen, since an agent taps what it finds.
func find(nodes []capture.Node, sel NodeSelector) *capture.Node {
	m, ok := capture.FindNode(nodes, sel.locator(), capture.MatchOptions{VisibleOnly: true, StrongestKeyOnly: true})
	if !ok {
		return nil
	}
	return m.Node
}

func selectorText(s NodeSelector) string {
	switch {
	case s.UID != "":
		return "uid " + s.UID + " of " + s.CaptureID
	case s.ResourceID != "":
		return "resourceId " + strconv.Quote(s.ResourceID)
	case s.ContentDescription != "":
		return "contentDescription " + strconv.Quote(s.ContentDescription)
	}
	return "text " + strconv.Quote(s.Text)
}

func describe(n *capture.Node) string {
	if l := firstNonEmpty(n.Text, n.ContentDescription, n.TestTag); l != "" {
		return "'" + clip(l, 40) + "'"
	}
	return n.Role
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// inputText is text as `input text` reads it: spaces become %s (the command reads
// them back as spaces) and a literal % is escaped. adb.Command quotes it for the
// shell; checkAction has refused control characters before.
func inputText(text string) string {
	text = strings.ReplaceAll(text, "%", `\%`)
	text = strings.ReplaceAll(text, " ", "%s")
	return text
}

var keyAliases = map[string]string{"BACKSPACE": "DEL", "DELETE": "FORWARD_DEL", "RETURN": "ENTER", "RECENTS": "APP_SWITCH", "ESC": "ESCAPE"}

// keyCode turns a key name into input keyevent's KEYCODE_ form.
func keyCode(name string) (string, error) {
	k := strings.ToUpper(strings.TrimSpace(name))
	k = strings.TrimPrefix(k, "KEYCODE_")
	if a, ok := keyAliases[k]; ok {
		k = a
	}
	if err := adb.CheckKey(k); err != nil {
		return "", errcode.New(errcode.InvalidInput, "key %s is not a key name (BACK, HOME, ENTER, DEL, APP_SWITCH, …)", adb.Clip(name))
	}
	return "KEYCODE_" + k, nil
}

// WaitForScreen polls the screen until the condition holds or the timeout passes.
func (p *Phone) WaitForScreen(ctx context.Context, serial string, cond ScreenCondition) (*WaitResult, error) {
	t, err := p.o.Pick(ctx, serial)
	if err != nil {
		return nil, err
	}
	timeout := time.Duration(min(max(cond.TimeoutMillis, 100), 50000)) * time.Millisecond
	every := time.Duration(max(cond.PollEveryMillis, 250)) * time.Millisecond
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res := &WaitResult{Serial: t.Serial}
	for {
		snap, err := p.o.Capturer.Capture(ctx, t.Serial)
		if err == nil {
			res.Fingerprint, res.Activity = snap.Fingerprint.String(), snap.State.Activity
			if reason, ok := met(snap, cond); ok {
				res.Met, res.Reason, res.WaitedMs = true, reason, time.Since(start).Milliseconds()
				return res, nil
			}
		}
		select {
		case <-ctx.Done():
			res.WaitedMs = time.Since(start).Milliseconds()
			res.Reason = fmt.Sprintf("timed out after %d ms", res.WaitedMs)
			if err != nil {
				res.Reason += ": " + firstLine(err.Error())
			}
			return res, nil
		case <-time.After(every):
		}
	}
}

func met(snap *capture.Snapshot, cond ScreenCondition) (string, bool) {
	if cond.FingerprintNot != "" && snap.Fingerprint.String() != cond.FingerprintNot {
		return "the screen changed", true
	}
	if cond.Text != "" && find(snap.Nodes, NodeSelector{Text: cond.Text}) != nil {
		return "the screen shows " + strconv.Quote(cond.Text), true
	}
	if cond.Node != nil && cond.Node.UID == "" && find(snap.Nodes, *cond.Node) != nil {
		return "the screen shows " + selectorText(*cond.Node), true
	}
	return "", false
}

// The demo app's answers to the FixThis bridge: status, heartbeat, inspection.
package android

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	"fixthis/internal/sidekick"
)

// The demo app's answers to the bridge methods, in the shapes of the upstream
// sidekick's models (internal/sidekick/models.go; goldens in its testdata).

// sidekickRestarted: the app's process started again, and its sidekick wrote a new
// session with a new token, as SessionTokenStore does on every start. Called with
// d.proc.mu held.
func (d *Device) sidekickRestarted() {
	token, err := randomToken()
	if err != nil {
		return
	}
	d.mu.Lock()
	d.token, d.createdAt = token, time.Now()
	d.mu.Unlock()
	file := "/data/user/0/" + d.profile.App.Package + "/" + sidekickSessionFile
	if err := d.fs.WriteFile(file, d.sidekickSession(), 0o600); err != nil {
		d.logf("sim: rewrite %s: %v", file, err)
	}
}

// sidekickConnectedWindow is how long after a heartbeat the app shows the host
// connected (BridgeConnectionState).
const sidekickConnectedWindow = 6 * time.Second

// noteHeartbeat records a heartbeat; the first after a silence logs that the app's
// status pill turned to connected.
func (d *Device) noteHeartbeat() {
	now := time.Now()
	d.mu.Lock()
	was := !d.lastBeat.IsZero() && now.Sub(d.lastBeat) <= sidekickConnectedWindow
	d.lastBeat = now
	d.mu.Unlock()
	if !was {
		d.log("I", "FixThisBridge", d.appPid(), "host connected")
	}
}

// SidekickConnected reports whether the app shows the host connected: a heartbeat
// came within the last six seconds.
func (d *Device) SidekickConnected() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return !d.lastBeat.IsZero() && time.Since(d.lastBeat) <= sidekickConnectedWindow
}

func (d *Device) sidekickStatus() sidekick.Status {
	st := d.phone.State()
	front := d.appInFront(st)
	f := false
	// AndroidBridgeEnvironment.status() (:57-77) inspects the screen for the activity
	// and the roots; the handler adds the bound socket name.
	insp := d.sidekickInspect()
	s := sidekick.Status{
		Activity: insp.Activity, RootsCount: len(insp.Roots),
		SidekickVersion: simSidekickVersion, BridgeProtocolVersion: sidekick.Version,
		Capabilities:      sidekick.Capabilities{TargetEvidence: true, DetailModes: []string{"compact", "precise", "full"}},
		ScreenInteractive: &st.ScreenOn, KeyguardLocked: &st.Locked, AppForeground: &front, PictureInPicture: &f,
	}
	s.SourceIndexAvailable = d.sidekickSourceIndex().SourceIndexAvailable
	name := d.sidekickBound
	installed, built := d.createdAt.UnixMilli(), d.createdAt.Truncate(time.Minute).UnixMilli()
	s.SocketName, s.InstallEpochMillis, s.SidekickBuildEpochMs = &name, &installed, &built
	return s
}

// sidekickSourceIndex answers readSourceIndex as BridgeSourceIndexReader.kt does at
// upstream v1.5.0: no asset, not available (:11-12); over 4 MiB, not available with
// the reader's message (:43, :50-55); JSON that does not decode as a SourceIndex,
// not available with the decoder's message (:20-27).
func (d *Device) sidekickSourceIndex() sidekick.SourceIndexResult {
	d.indexOnce.Do(func() { d.indexResult = readSourceIndex(d.profile.App.SourceIndex) })
	return d.indexResult // cached, as AndroidBridgeEnvironment.kt:152-158 caches it
}

func readSourceIndex(data []byte) sidekick.SourceIndexResult {
	switch {
	case data == nil:
		return sidekick.SourceIndexResult{}
	case len(data) > sidekick.MaxSourceIndexBytes:
		msg := "Source index asset exceeds " + strconv.Itoa(sidekick.MaxSourceIndexBytes) + " bytes"
		return sidekick.SourceIndexResult{SourceIndexError: &msg}
	}
	var probe struct {
		Entries []struct {
			File string `json:"file"`
		} `json:"entries"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		msg := err.Error()
		return sidekick.SourceIndexResult{SourceIndexError: &msg}
	}
	return sidekick.SourceIndexResult{SourceIndexAvailable: true, SourceIndex: data}
}

// appInFront: the app is the resumed activity on an unlocked, lit screen.
func (d *Device) appInFront(st PhoneState) bool {
	return st.ForegroundPackage == d.profile.App.Package && st.ScreenOn && !st.Locked
}

// sidekickInspect answers inspectCurrentScreen (AndroidBridgeEnvironment.kt:83-106):
// one Compose root over the window of the sidekick's current activity, which stays
// the last one resumed while the app is in the background (see sidekickActivity),
// with its merged and unmerged semantics; NO_ACTIVITY before any; no root for a
// screen without Compose.
func (d *Device) sidekickInspect() sidekick.ScreenInspection {
	activity, nodes, ok := d.sidekickActivity()
	if !ok {
		return sidekick.ScreenInspection{Roots: []sidekick.InspectedRoot{}, Errors: []sidekick.InspectionError{
			{Code: "NO_ACTIVITY", Message: "No resumed Activity is available", Details: map[string]string{}},
		}}
	}
	_ = d.delay(context.Background(), d.profile.Latency.SidekickInspect)
	insp := sidekick.ScreenInspection{Activity: &activity, Roots: []sidekick.InspectedRoot{}, Errors: []sidekick.InspectionError{}}
	if len(nodes) == 0 {
		return insp
	}
	w, h := d.screenSize(d.phone.State())
	window := sidekick.Rect{Right: float64(w), Bottom: float64(h)}
	insp.Roots = append(insp.Roots, sidekick.InspectedRoot{
		RootIndex:      0,
		BoundsInWindow: window,
		MergedNodes:    composeTree(nodes, window, sidekick.TreeMerged),
		UnmergedNodes:  composeTree(nodes, window, sidekick.TreeUnmerged),
	})
	return insp
}

// composeRoles maps the console's roles to Compose's Role names.
var composeRoles = map[string]string{
	"Button": "Button", "Checkbox": "Checkbox", "Switch": "Switch", "RadioButton": "RadioButton",
	"Image": "Image", "DropdownList": "DropdownList", "Tab": "Tab",
}

// Redaction placeholders of the sidekick's RedactionPolicy.
const (
	redactedPassword = "<redacted-password>"
	redactedEditable = "<redacted-editable-text>"
)

// composeTree turns the app's nodes (screen pixels; the app's window fills the
// screen, so window pixels too) into semantics nodes under a root node with id 1.
func composeTree(nodes []sidekick.Node, window sidekick.Rect, kind string) []sidekick.ComposeNode {
	prefix := "compose:0:"
	if kind == sidekick.TreeMerged {
		prefix += "merged:"
	} else {
		prefix += "unmerged:"
	}
	root := sidekick.ComposeNode{
		UID: prefix + "1", ComposeNodeID: 1, TreeKind: kind, BoundsInWindow: window,
		Text: []string{}, ContentDescription: []string{}, Enabled: true, Actions: []string{},
		Path: []string{"root"}, RawProperties: map[string]string{},
	}
	out := []sidekick.ComposeNode{root}
	paths := map[string][]string{} // node uid → its path
	// In the merged tree a clickable node (Modifier.clickable and Button set
	// mergeDescendants) takes in the texts and descriptions of its descendants, and
	// they are not listed; a clickable descendant merges on its own. That is what
	// SemanticsInspector.kt:63-64 asks for with mergingEnabled = true.
	into := map[string]int{} // node uid → index in out of the node it merges into
	for i, n := range nodes {
		id := i + 2
		if target, folded := into[n.ParentUID]; folded && kind == sidekick.TreeMerged && !n.Clickable {
			into[n.UID] = target
			m := &out[target]
			if n.Text != "" && !n.Password && !n.Editable {
				m.Text = append(m.Text, n.Text)
			}
			if n.ContentDescription != "" && !n.Password {
				m.ContentDescription = append(m.ContentDescription, n.ContentDescription)
			}
			continue
		}
		parent, ok := paths[n.ParentUID]
		if !ok {
			parent = root.Path
		}
		path := append(append([]string(nil), parent...), "node:"+strconv.Itoa(id))
		paths[n.UID] = path
		cn := sidekick.ComposeNode{
			UID: prefix + strconv.Itoa(id), ComposeNodeID: id, TreeKind: kind,
			BoundsInWindow: sidekick.Rect{Left: float64(n.Bounds.Left), Top: float64(n.Bounds.Top),
				Right: float64(n.Bounds.Right), Bottom: float64(n.Bounds.Bottom)},
			Text: []string{}, ContentDescription: []string{}, Enabled: n.Enabled, Actions: []string{},
			IsPassword: n.Password, IsSensitive: n.Password || n.Editable,
			Path: path, RawProperties: map[string]string{},
		}
		switch {
		case n.Password:
			cn.Text = []string{redactedPassword}
			cn.EditableText = ptr(redactedPassword)
		case n.Editable:
			cn.EditableText = ptr(redactedEditable)
		case n.Text != "":
			cn.Text = []string{n.Text}
			cn.Actions = append(cn.Actions, "GetTextLayoutResult")
		}
		if n.ContentDescription != "" {
			cn.ContentDescription = []string{n.ContentDescription}
			if n.Password {
				cn.ContentDescription = []string{redactedPassword}
			}
		}
		if r, ok := composeRoles[n.Role]; ok {
			cn.Role = ptr(r)
		}
		if n.TestTag != "" {
			cn.TestTag = ptr(n.TestTag)
		}
		if n.Selected {
			cn.Selected = ptr(true)
		}
		if n.Clickable {
			cn.Actions = append(cn.Actions, sidekick.ActionOnClick)
		}
		if n.Scrollable {
			cn.Actions = append(cn.Actions, sidekick.ActionScrollBy)
		}
		if n.Editable || n.Password {
			cn.Actions = append(cn.Actions, sidekick.ActionSetText, sidekick.ActionRequestFocus)
		}
		if n.Clickable {
			into[n.UID] = len(out)
		}
		out = append(out, cn)
	}
	return out
}

func ptr[T any](v T) *T { return &v }

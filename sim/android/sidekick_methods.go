// The demo app's answers to the bridge methods beyond the inspection: snapshot,
// screenshot, verification, navigation — each as upstream v1.5.0 answers it.
package android

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"strings"
	"time"

	"fixthis/internal/sidekick"
)

// sidekickActivity is the activity the sidekick inspects: AndroidBridgeEnvironment
// keeps the last resumed activity (BridgeRuntime.kt:78-84 sets it on resume and
// clears it only on destroy), so a backgrounded app still answers with the tree of
// its last activity. The simulated app keeps the activity and tree it last showed
// while its process lives; ok is false before it ever showed one.
func (d *Device) sidekickActivity() (activity string, nodes []sidekick.Node, ok bool) {
	inner := d.phone
	if a, isApps := inner.(*appsPhone); isApps {
		inner = a.Phone // another app covering ours does not destroy our activity
	}
	st := inner.State()
	pid := d.appPid()
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.lastActivityPid != pid {
		d.lastActivity, d.lastNodes, d.lastActivityPid = "", nil, pid
	}
	if st.ForegroundPackage == d.profile.App.Package && st.Activity != "" {
		var compose []sidekick.Node
		for _, n := range inner.ActivityNodes() {
			if n.Compose {
				compose = append(compose, n)
			}
		}
		d.lastActivity, d.lastNodes = st.Activity, compose
	}
	return d.lastActivity, d.lastNodes, d.lastActivity != ""
}

// errMethodFailed carries the message a handler's exception would have; the server
// answers it as METHOD_FAILED (BridgeServer.kt:164-169).
type errMethodFailed struct{ msg string }

func (e errMethodFailed) Error() string { return e.msg }

func failed(format string, args ...any) error { return errMethodFailed{fmt.Sprintf(format, args...)} }

// sidekickCall answers the methods of this file; handled is false for others.
func (d *Device) sidekickCall(method string, params json.RawMessage) (result any, err error, handled bool) {
	switch method {
	case sidekick.MethodCaptureScreenSnapshot:
		r, err := d.sidekickSnapshot()
		return r, err, true
	case sidekick.MethodVerifyUIChange:
		return d.sidekickVerify(params), nil, true
	case sidekick.MethodReadScreenshot:
		r, err := d.sidekickReadScreenshot(params)
		return r, err, true
	case sidekick.MethodPerformNavigation:
		r, err := d.sidekickNavigate(params)
		return r, err, true
	}
	return nil, nil, false
}

// sidekickSnapshot is captureScreenSnapshot (AndroidBridgeEnvironment.kt:108-150): the
// inspection, a PNG of the window saved under cache/fixthis/<date>/ (ScreenshotStore.kt:
// 28-29, 60), the display metrics and window mode; with no activity, the inspection's
// NO_ACTIVITY error only (:114-124). It becomes the snapshot readScreenshot reads.
func (d *Device) sidekickSnapshot() (sidekick.ScreenSnapshot, error) {
	indexed := d.sidekickSourceIndex().SourceIndexAvailable
	insp := d.sidekickInspect()
	if insp.Activity == nil {
		snap := sidekick.ScreenSnapshot{Inspection: insp, SourceIndexAvailable: indexed}
		d.setLastSnapshot(snap)
		return snap, nil
	}
	frame := d.phone.Frame()
	var buf bytes.Buffer
	if err := png.Encode(&buf, frame); err != nil {
		return sidekick.ScreenSnapshot{}, failed("Could not encode screenshot: %v", err)
	}
	id := make([]byte, 16)
	_, _ = rand.Read(id)
	dir := "/data/user/0/" + d.profile.App.Package + "/cache/fixthis/" + time.Now().Format("20060102")
	full := dir + "/screen-" + hex.EncodeToString(id) + "-full.png"
	if err := d.fs.MkdirAll(dir, 0o771); err != nil {
		return sidekick.ScreenSnapshot{}, failed("Could not create screenshot directory: %s", dir)
	}
	if err := d.fs.WriteFile(full, buf.Bytes(), 0o600); err != nil {
		return sidekick.ScreenSnapshot{}, failed("Could not write screenshot: %v", err)
	}
	w, h := frame.Bounds().Dx(), frame.Bounds().Dy()
	orient, mode, density := "PORTRAIT", "FULLSCREEN", d.density()
	if w > h {
		orient = "LANDSCAPE"
	}
	snap := sidekick.ScreenSnapshot{
		Activity: insp.Activity, Inspection: insp, SourceIndexAvailable: indexed,
		Screenshot:  &sidekick.ScreenshotInfo{FullPath: &full, Width: &w, Height: &h},
		Orientation: &orient, WidthPx: &w, HeightPx: &h, DensityDpi: &density, WindowMode: &mode,
	}
	// SystemUiDetector sees the keyboard's insets in-process.
	list, _, _ := d.windows()
	visible := list[3].visible // the input method's window (windows.go)
	snap.SystemUIVisible = &visible
	if visible {
		kind := "ime"
		snap.SystemUIKind = &kind
	}
	d.setLastSnapshot(snap)
	return snap, nil
}

func (d *Device) setLastSnapshot(s sidekick.ScreenSnapshot) {
	d.mu.Lock()
	d.lastSnapshot = &s
	d.mu.Unlock()
}

// sidekickVerify is verifyUiChange (DefaultBridgeMethodHandlers.kt:92-109): the first
// text or description of either tree containing expectedText, ignoring case.
func (d *Device) sidekickVerify(params json.RawMessage) sidekick.UIVerification {
	var p struct {
		ExpectedText *string `json:"expectedText"`
	}
	_ = json.Unmarshal(params, &p)
	if p.ExpectedText == nil || strings.TrimSpace(*p.ExpectedText) == "" {
		msg := "No expectedText parameter was provided"
		return sidekick.UIVerification{Message: &msg}
	}
	want := strings.ToLower(*p.ExpectedText)
	insp := d.sidekickInspect()
	for _, r := range insp.Roots {
		for _, n := range append(append([]sidekick.ComposeNode(nil), r.MergedNodes...), r.UnmergedNodes...) {
			for _, v := range append(append([]string(nil), n.Text...), n.ContentDescription...) {
				if strings.Contains(strings.ToLower(v), want) {
					return sidekick.UIVerification{Verified: true, ExpectedText: p.ExpectedText, MatchedText: &v}
				}
			}
		}
	}
	msg := "Expected text was not found on the current screen"
	return sidekick.UIVerification{ExpectedText: p.ExpectedText, Message: &msg}
}

// maxScreenshotRead is BridgeScreenshotReader.kt:48.
const maxScreenshotRead = 16 << 20

// sidekickReadScreenshot is readScreenshot (BridgeScreenshotReader.kt:14-45): the last
// snapshot's full or crop PNG, base64, only from the app's screenshot cache.
func (d *Device) sidekickReadScreenshot(params json.RawMessage) (sidekick.ScreenshotRead, error) {
	var p struct {
		Path   *string `json:"path"`
		Kind   *string `json:"kind"`
		Source *string `json:"source"`
	}
	_ = json.Unmarshal(params, &p)
	if p.Path != nil {
		return sidekick.ScreenshotRead{}, failed("Explicit screenshot paths are not supported; use kind=full or kind=crop for the latest screen snapshot")
	}
	kind, source := "full", "screenSnapshot"
	if p.Kind != nil {
		kind = *p.Kind
	}
	if p.Source != nil {
		source = *p.Source
	}
	if kind != "full" && kind != "crop" {
		return sidekick.ScreenshotRead{}, failed("Unsupported screenshot kind: %s", kind)
	}
	if source != "screenSnapshot" {
		return sidekick.ScreenshotRead{}, failed("Unsupported screenshot source: %s", source)
	}
	d.mu.Lock()
	snap := d.lastSnapshot
	d.mu.Unlock()
	var path *string
	if snap != nil && snap.Screenshot != nil {
		path = snap.Screenshot.FullPath
		if kind == "crop" {
			path = snap.Screenshot.CropPath // captureScreenSnapshot saves no crop (selectedBounds = null)
		}
	}
	if path == nil || *path == "" {
		return sidekick.ScreenshotRead{}, failed("No screenshot path is available")
	}
	data, err := d.fs.ReadFile(*path)
	switch {
	case err != nil:
		return sidekick.ScreenshotRead{}, failed("Screenshot does not exist: %s", *path)
	case len(data) > maxScreenshotRead:
		return sidekick.ScreenshotRead{}, failed("Screenshot is too large to read")
	case !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return sidekick.ScreenshotRead{}, failed("Screenshot file is not PNG data")
	}
	return sidekick.ScreenshotRead{Path: *path, Kind: kind, MimeType: "image/png", Base64: base64.StdEncoding.EncodeToString(data)}, nil
}

// sidekickNavigate is performNavigation (NavigationPerformer.kt:68-106): back, a tap
// inside the window, or a swipe from its centre (:87-98, :120-152), on the current
// activity.
func (d *Device) sidekickNavigate(params json.RawMessage) (sidekick.NavigationResult, error) {
	var req sidekick.NavigationRequest
	if err := json.Unmarshal(params, &req); err != nil {
		return sidekick.NavigationResult{}, failed("%v", err)
	}
	switch req.Action {
	case "back", "tap", "swipe":
	default:
		return sidekick.NavigationResult{}, enumError("BridgeNavigationAction", req.Action)
	}
	activity, _, ok := d.sidekickActivity()
	if !ok {
		return sidekick.NavigationResult{}, failed("No resumed Activity is available for navigation")
	}
	w, h := d.screenSize(d.phone.State())
	switch req.Action {
	case "back":
		d.phone.Key("BACK")
	case "tap":
		if req.X == nil {
			return sidekick.NavigationResult{}, failed("Tap navigation requires x")
		}
		if req.Y == nil {
			return sidekick.NavigationResult{}, failed("Tap navigation requires y")
		}
		x, y := *req.X, *req.Y
		if math.IsNaN(x) || math.IsNaN(y) || x < 0 || y < 0 || x >= float64(w) || y >= float64(h) {
			return sidekick.NavigationResult{}, failed("Tap coordinates are outside the current window")
		}
		d.phone.Tap(int(x), int(y))
	case "swipe":
		if req.Direction == nil {
			return sidekick.NavigationResult{}, failed("Swipe navigation requires direction")
		}
		dist := float64(min(w, h)) * swipeDistanceFraction
		if req.Distance != nil {
			dist = *req.Distance
		}
		if math.IsNaN(dist) || math.IsInf(dist, 0) || dist <= 0 {
			return sidekick.NavigationResult{}, failed("Swipe distance must be greater than 0")
		}
		cx, cy := w/2, h/2
		dx, dy := 0, 0
		switch *req.Direction {
		case "up":
			dy = -int(dist)
		case "down":
			dy = int(dist)
		case "left":
			dx = -int(dist)
		case "right":
			dx = int(dist)
		default:
			return sidekick.NavigationResult{}, enumError("BridgeSwipeDirection", *req.Direction)
		}
		d.phone.Swipe(cx, cy, cx+dx, cy+dy, swipeUpAfter)
	}
	return sidekick.NavigationResult{Performed: true, Action: req.Action, Activity: &activity}, nil
}

// NavigationPerformer.kt:162-167: the default swipe is 0.6 of the shorter side; the
// finger lifts 160 ms after it went down.
const (
	swipeDistanceFraction = 0.6
	swipeUpAfter          = 160 * time.Millisecond
)

// enumError is kotlinx.serialization's message for an enum value it does not know,
// which the server answers as METHOD_FAILED.
func enumError(enum, v string) error {
	return failed("io.github.beyondwin.fixthis.compose.sidekick.bridge.%s does not contain element with name '%s'", enum, v)
}

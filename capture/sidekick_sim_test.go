package capture_test

import (
	"context"
	"errors"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"fixthis/adb/adbtest"
	"fixthis/capture"
	"fixthis/internal/eventually"
	"fixthis/internal/sidekick"
	"fixthis/sim"
)

// simSidekick connects a client to the demo app's sidekick through adb forwards, as
// app/device does, on a phone whose inspection takes the scenario's 40 ms.
func simSidekick(t *testing.T) (adbtest.Phone, *capture.SidekickClient, func(context.Context, string) (net.Conn, error)) {
	t.Helper()
	p := adbtest.StartPhone(t, sim.Options{Scenario: "demo", LatencyScale: 1, Logf: adbtest.Quiet})
	dev := p.Client.Device(p.Serial())
	pkg := p.Device.Profile().App.Package
	sess, err := capture.ReadSidekickSession(context.Background(), dev, pkg)
	if err != nil {
		t.Fatal(err)
	}
	dial := func(ctx context.Context, socket string) (net.Conn, error) {
		port, err := p.Client.ForwardLocalAbstract(ctx, p.Serial(), socket)
		if err != nil {
			return nil, err
		}
		var d net.Dialer
		return d.DialContext(ctx, "tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	}
	c := &capture.SidekickClient{Session: sess, Dial: dial}
	t.Cleanup(func() { c.Close() })
	return p, c, dial
}

func appPid(t *testing.T, p adbtest.Phone) string {
	t.Helper()
	res, err := p.Client.Device(p.Serial()).Shell(context.Background(), "pidof "+p.Device.Profile().App.Package)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(res.Stdout))
}

// A call cut by its deadline leaves the app's bridge serving: the client keeps the
// connection, the app writes its late answer into it, and the next call is
// answered on the same connection by the same process.
func TestSidekickDeadlineLeavesTheSimulatedBridgeServing(t *testing.T) {
	p, c, _ := simSidekick(t)
	ctx := context.Background()
	if _, err := c.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	pid := appPid(t, p)
	short, cancel := context.WithTimeout(ctx, 5*time.Millisecond)
	defer cancel()
	if _, err := c.InspectCurrentScreen(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("inspection under a 5 ms deadline: %v", err)
	}
	insp, err := c.InspectCurrentScreen(ctx)
	if err != nil || insp.MergedNodes() == 0 {
		t.Fatalf("the call after: %v", err)
	}
	if got := appPid(t, p); got != pid || pid == "" {
		t.Errorf("app pid %q, was %q", got, pid)
	}
	if c.DroppedAnswers() != 1 {
		t.Errorf("%d late answers dropped, want 1", c.DroppedAnswers())
	}
}

// What the client avoids: a host that closes the socket under the app's answer
// kills the app (upstream writes the answer outside any catch).
func TestSimulatedAppDiesOfAReplyIntoAClosedSocket(t *testing.T) {
	p, c, dial := simSidekick(t)
	pid := appPid(t, p)
	conn, err := dial(context.Background(), c.Session.SocketName)
	if err != nil {
		t.Fatal(err)
	}
	body := `{"id":"req_1","token":"` + c.Session.Token + `","method":"inspectCurrentScreen","params":{}}`
	if err := sidekick.WriteFrame(conn, []byte(body)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond) // the request reaches the app, which inspects for 40 ms
	conn.Close()                      // gives up while the app inspects
	eventually.True(t, 5*time.Second, "the app to crash on its answer into a closed socket", func() bool {
		return appPid(t, p) != pid
	})
	res, _ := p.Client.Device(p.Serial()).Shell(context.Background(), "logcat -d -b crash")
	if !strings.Contains(string(res.Stdout), "BridgeServer.handleClient") {
		t.Errorf("crash buffer %q", res.Stdout)
	}
}

// The simulated app answers all eight methods upstream's bridge has, in its shapes.
func TestSimulatedSidekickAnswersAllEightMethods(t *testing.T) {
	_, c, _ := simSidekick(t)
	ctx := context.Background()
	call := func(method string, params, out any) {
		t.Helper()
		if err := c.Call(ctx, method, params, out); err != nil {
			t.Fatalf("%s: %v", method, err)
		}
	}
	var hb sidekick.HeartbeatResult
	call(sidekick.MethodHeartbeat, nil, &hb)
	var st sidekick.Status
	call(sidekick.MethodStatus, nil, &st)
	if !hb.Connected || st.Activity == nil || st.RootsCount != 1 || !st.SourceIndexAvailable || st.SocketName == nil {
		t.Errorf("heartbeat %+v, status %+v", hb, st)
	}
	var insp sidekick.ScreenInspection
	call(sidekick.MethodInspectCurrentScreen, nil, &insp)
	// Merged trees fold the children of clickable nodes into them.
	if m, u := insp.MergedNodes(), len(insp.Roots[0].UnmergedNodes); m == 0 || m >= u {
		t.Errorf("merged %d nodes, unmerged %d: want fewer merged", m, u)
	}
	var idx sidekick.SourceIndexResult
	call(sidekick.MethodReadSourceIndex, nil, &idx)
	if !idx.SourceIndexAvailable || !strings.Contains(string(idx.SourceIndex), `"schemaVersion": "1.3"`) {
		t.Errorf("source index available %v, %d bytes", idx.SourceIndexAvailable, len(idx.SourceIndex))
	}
	var snap sidekick.ScreenSnapshot
	call(sidekick.MethodCaptureScreenSnapshot, map[string]string{}, &snap)
	if snap.Screenshot == nil || snap.Screenshot.FullPath == nil || snap.WidthPx == nil || snap.Inspection.MergedNodes() == 0 {
		t.Fatalf("snapshot %+v", snap)
	}
	var shot sidekick.ScreenshotRead
	call(sidekick.MethodReadScreenshot, map[string]string{"kind": "full"}, &shot)
	if shot.MimeType != "image/png" || shot.Path != *snap.Screenshot.FullPath || !strings.HasPrefix(shot.Base64, "iVBORw0KGgo") {
		t.Errorf("screenshot %s %s %.20s", shot.Path, shot.MimeType, shot.Base64)
	}
	var se *capture.SidekickError
	if err := c.Call(ctx, sidekick.MethodReadScreenshot, map[string]string{"kind": "crop"}, nil); !errors.As(err, &se) || se.Code != sidekick.CodeMethodFailed {
		t.Errorf("crop of a snapshot without one: %v", err)
	}
	var ok, missing sidekick.UIVerification
	call(sidekick.MethodVerifyUIChange, map[string]string{"expectedText": "find your NEXT"}, &ok)
	call(sidekick.MethodVerifyUIChange, map[string]string{"expectedText": "Checkout"}, &missing)
	if !ok.Verified || ok.MatchedText == nil || *ok.MatchedText != "Find your next trail" || missing.Verified || missing.Message == nil {
		t.Errorf("verify %+v / %+v", ok, missing)
	}
	var nav sidekick.NavigationResult
	call(sidekick.MethodPerformNavigation, sidekick.NavigationRequest{Action: "back"}, &nav)
	if !nav.Performed || nav.Action != "back" {
		t.Errorf("navigation %+v", nav)
	}
	far := 1e9
	if err := c.Call(ctx, sidekick.MethodPerformNavigation, sidekick.NavigationRequest{Action: "tap", X: &far, Y: &far}, nil); !errors.As(err, &se) || !strings.Contains(se.Message, "outside the current window") {
		t.Errorf("tap outside: %v", err)
	}
}

// A backgrounded app answers with its last activity's tree (upstream keeps the last
// resumed activity until it is destroyed); the host does not use it for the screen
// in front.
func TestSimulatedSidekickAnswersFromTheBackground(t *testing.T) {
	p, c, _ := simSidekick(t)
	ctx := context.Background()
	before, err := c.InspectCurrentScreen(ctx)
	if err != nil || before.Activity == nil {
		t.Fatalf("in front: %v", err)
	}
	dev := p.Client.Device(p.Serial())
	if res, err := dev.Shell(ctx, "input keyevent HOME"); err != nil || res.ExitCode != 0 {
		t.Fatalf("home: %v", err)
	}
	after, err := c.InspectCurrentScreen(ctx)
	if err != nil || after.Activity == nil || *after.Activity != *before.Activity || after.MergedNodes() != before.MergedNodes() || len(after.Errors) != 0 {
		t.Fatalf("in the background: %+v %v", after, err)
	}
	st, err := capture.ReadScreenState(ctx, dev)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := capture.SidekickNodes(after, st, p.Device.Profile().App.Package); !errors.Is(err, capture.ErrSidekickTreeUnused) {
		t.Errorf("the background tree was used for the launcher in front: %v", err)
	}
}

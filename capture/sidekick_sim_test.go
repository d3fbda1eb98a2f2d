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
	deadline := time.Now().Add(5 * time.Second)
	for appPid(t, p) == pid && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if got := appPid(t, p); got == pid {
		t.Fatal("the app survived its answer into a closed socket")
	}
	res, _ := p.Client.Device(p.Serial()).Shell(context.Background(), "logcat -d -b crash")
	if !strings.Contains(string(res.Stdout), "BridgeServer.handleClient") {
		t.Errorf("crash buffer %q", res.Stdout)
	}
}

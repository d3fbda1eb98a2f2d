package evidence_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"fixthis/app/evidence"
	"fixthis/app/evidence/network"
	"fixthis/app/evidence/webview"
	"fixthis/internal/chromiumtest"
	"fixthis/sim"
)

// A page in the simulated app's WebView (a real headless Chromium behind the
// phone's webview_devtools_remote_<pid> socket) fetches a 404 and a refused
// port; found through /proc/net/unix and watched over an adb forward, its
// calls join the item's network evidence, redacted like the log's.
func TestWebViewThroughTheSimulatedPhone(t *testing.T) {
	c, dev := simDevice(t, sim.Options{LatencyScale: 0})
	srv := chromiumtest.PageServer(t)
	if _, err := dev.ServeWebViewDevTools(chromiumtest.Start(t, srv.URL+"/?token=s3cr3t-in-the-url")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sh := c.Device(dev.Serial())
	unix, err := sh.Shell(ctx, webview.ProcNetUnixCommand)
	if err != nil {
		t.Fatal(err)
	}
	pidOut, err := sh.Shell(ctx, "pidof "+dev.Profile().App.Package)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(pidOut.Stdout)))
	socket := webview.Socket(string(unix.Stdout), pid)
	if socket == "" {
		t.Fatalf("no DevTools socket for pid %d in:\n%s", pid, unix.Stdout)
	}
	dial, stop, err := webview.AdbDialer(ctx, c, dev.Serial(), socket)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	var w *webview.Watcher
	for w == nil && ctx.Err() == nil { // Chromium lists the page once it has loaded
		if w, err = webview.Watch(ctx, dial); err != nil {
			time.Sleep(200 * time.Millisecond)
		}
	}
	if w == nil {
		t.Fatalf("watch: %v", err)
	}
	defer w.Close()
	has := func(rs []network.Request) (missing, refused bool) {
		for _, r := range rs {
			missing = missing || r.Status == 404 && strings.HasSuffix(r.URL, "/api/missing") && r.Source == webview.SourceWebView
			refused = refused || r.Failed && strings.HasSuffix(r.URL, ":1/refused") // the evidence's has its address redacted
		}
		return
	}
	for ctx.Err() == nil {
		if m, r := has(w.Requests()); m && r {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	a := evidence.Collect(ctx, sh, evidence.Request{Serial: dev.Serial(), Package: dev.Profile().App.Package,
		Store: store(t), SessionID: "s1", WebView: w.Requests()})
	n := a.Attachment(evidence.KindNetwork).Network
	if n == nil {
		t.Fatalf("attempt %+v", a)
	}
	if m, r := has(n.Requests); !m || !r {
		t.Errorf("the WebView's 404 and refused call are not in the evidence: %+v", n.Requests)
	}
	for _, r := range n.Requests {
		if strings.Contains(r.URL, "s3cr3t") || strings.Contains(r.URL, "127.0.0.1") {
			t.Errorf("a query value reached the evidence: %s", r.URL)
		}
	}
}

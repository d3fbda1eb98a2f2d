package source_test

import (
	"context"
	"net"
	"strconv"
	"strings"
	"testing"

	"fixthis/adb/adbtest"
	"fixthis/app/source"
	"fixthis/capture"
	"fixthis/sim"
)

// With no project folder at all, an item on the demo's title still gets a source
// candidate: TrailListScreen.kt, from the index the demo's APK carries, read through
// the sidekick and, with no sidekick, from the APK itself.
func TestEmptyProjectFolderGetsTheAppsIndex(t *testing.T) {
	p := adbtest.StartPhone(t, sim.Options{Scenario: "demo", Logf: adbtest.Quiet})
	ctx := context.Background()
	dev := p.Client.Device(p.Serial())
	pkg := p.Device.Profile().App.Package
	sess, err := capture.ReadSidekickSession(ctx, dev, pkg)
	if err != nil {
		t.Fatal(err)
	}
	sk := &capture.SidekickClient{Session: sess, Dial: func(ctx context.Context, socket string) (net.Conn, error) {
		port, err := p.Client.ForwardLocalAbstract(ctx, p.Serial(), socket)
		if err != nil {
			return nil, err
		}
		var d net.Dialer
		return d.DialContext(ctx, "tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	}}
	defer sk.Close()
	for _, tc := range []struct {
		name string
		sk   *capture.SidekickClient
		from string
	}{
		{"through the sidekick", sk, capture.IndexFromSidekick},
		{"from the APK", nil, capture.IndexFromAPK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw, err := capture.ReadAppSourceIndex(ctx, dev, tc.sk, pkg)
			if err != nil || raw.From != tc.from {
				t.Fatalf("read: %v (from %q)", err, raw.From)
			}
			ai, err := source.ParseAppIndex(raw.Data)
			if err != nil {
				t.Fatal(err)
			}
			idx, err := source.Build(ctx, t.TempDir()) // an empty project folder
			if err != nil {
				t.Fatal(err)
			}
			if r := source.ReadinessOf(idx, nil); r != source.NoSources {
				t.Fatalf("empty folder readiness %q", r)
			}
			idx.SetAppIndex(ai)
			if r := source.ReadinessOf(idx, nil); r != source.Ready {
				t.Errorf("readiness with the app's index %q", r)
			}
			cands := idx.Match(source.Query{Text: "Find your next trail", TestTag: "screen_title", Activity: "com.fixthis.demo.MainActivity"})
			if len(cands) == 0 {
				t.Fatal("no candidates")
			}
			c := cands[0]
			if !strings.HasSuffix(c.File, "/TrailListScreen.kt") || c.Index != source.FromApp || c.Owner != "TrailListHeader" || c.Confidence == "low" {
				t.Errorf("best candidate %+v", c)
			}
		})
	}
}

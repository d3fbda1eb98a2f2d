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
// candidate: TrailListScreen.kt, from the index the demo's APK carries, read from the
// APK by range; where dd cannot, with the phone's unzip and, on a phone without one,
// through the sidekick.
func TestEmptyProjectFolderGetsTheAppsIndex(t *testing.T) {
	for _, tc := range []struct {
		name     string
		scenario string
		sidekick bool
		noRange  bool
		from     string
	}{
		// Every phone: the entry's compressed bytes by range, also where a sidekick
		// could send it (pretty-printed, twice the index's bytes).
		{"by range beside a sidekick", "demo", true, false, capture.IndexFromAPKRange},
		{"by range on Android 9", adbtest.DemoOnAndroid9(t), false, false, capture.IndexFromAPKRange},
		// dd fails: the phone's unzip pipes the entry out (Android 10+); Android 9
		// has no unzip: the sidekick's readSourceIndex.
		{"with unzip", "demo", false, true, capture.IndexFromAPK},
		{"through the sidekick", adbtest.DemoOnAndroid9(t), true, true, capture.IndexFromSidekick},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := sim.Options{Scenario: tc.scenario, Logf: adbtest.Quiet}
			if tc.noRange {
				opts.Outputs = adbtest.NoRangedRead(t)
			}
			p := adbtest.StartPhone(t, opts)
			ctx := context.Background()
			dev := p.Client.Device(p.Serial())
			pkg := p.Device.Profile().App.Package
			var sk *capture.SidekickClient
			if tc.sidekick {
				sess, err := capture.ReadSidekickSession(ctx, dev, pkg)
				if err != nil {
					t.Fatal(err)
				}
				sk = &capture.SidekickClient{Session: sess, Dial: func(ctx context.Context, socket string) (net.Conn, error) {
					port, err := p.Client.ForwardLocalAbstract(ctx, p.Serial(), socket)
					if err != nil {
						return nil, err
					}
					var d net.Dialer
					return d.DialContext(ctx, "tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
				}}
				defer sk.Close()
			}
			raw, err := capture.ReadAppSourceIndex(ctx, dev, sk, pkg)
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

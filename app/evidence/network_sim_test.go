package evidence_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"fixthis/app/evidence"
	"fixthis/sim"
)

// The demo app's calls, logged by the simulated phone as OkHttp's interceptor
// logs them, become the item's requests with their method, status, time and
// failure. A call the shell wrote with `log` under OkHttp's tag counts,
// marked as another process's; under any other tag it stays out.
func TestNetworkFromTheSimulatedPhone(t *testing.T) {
	c, dev := simDevice(t, sim.Options{LatencyScale: 1})
	sh := c.Device(dev.Serial())
	for _, cmd := range []string{
		`log -p i -t Retrofit -- '--> GET https://shell.test/not-okhttps-tag'`,
		`log -p i -t okhttp.OkHttpClient -- '--> DELETE https://shell.test/v1/cache'`,
		`log -p i -t okhttp.OkHttpClient -- '<-- 204 No Content https://shell.test/v1/cache (9ms)'`,
	} {
		if res, err := sh.Shell(context.Background(), cmd); err != nil || res.ExitCode != 0 {
			t.Fatalf("%s: %v %+v", cmd, err, res)
		}
	}
	time.Sleep(1800 * time.Millisecond) // the demo's slowest call ends 1,620 ms after the app starts
	freeze := time.Now()
	a := evidence.Collect(context.Background(), sh, evidence.Request{Serial: dev.Serial(), Package: dev.Profile().App.Package,
		Since: freeze.Add(-evidence.DefaultLookback), Freeze: freeze, Store: store(t), SessionID: "s1"})
	at := a.Attachment(evidence.KindNetwork)
	n := at.Network
	if a.Status != evidence.StatusComplete || at.Status != evidence.StatusComplete || n == nil {
		t.Fatalf("attempt %+v", a)
	}
	got := map[string]string{}
	for _, r := range n.Requests {
		got[r.Method+" "+r.URL] = fmt.Sprintf("status=%d failed=%v error=%q ms=%v", r.Status, r.Failed, r.Error, deref(r.DurationMs))
		if r.OtherProcess != (r.URL == "https://shell.test/v1/cache") {
			t.Errorf("otherProcess %v on %+v", r.OtherProcess, r)
		}
	}
	want := map[string]string{
		"GET https://api.trailhead.test/v1/trails?[REDACTED]":  `status=200 failed=false error="" ms=182`,
		"GET https://cdn.trailhead.test/covers/42.jpg":         `status=200 failed=false error="" ms=1240`,
		"POST https://api.trailhead.test/v1/favourites":        `status=500 failed=false error="" ms=231`,
		"GET https://api.trailhead.test/v1/weather?[REDACTED]": `status=0 failed=true error="java.net.SocketTimeoutException: timeout" ms=-`,
		"DELETE https://shell.test/v1/cache":                   `status=204 failed=false error="" ms=9`,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) || n.Failed != 2 || n.Slow != 1 {
		t.Errorf("requests\n%v\nwant\n%v\n(failed %d, slow %d)", got, want, n.Failed, n.Slow)
	}
	all, _ := json.Marshal(a)
	for _, secret := range []string{"AIzaSy", "eyJhbGci", "not-okhttps-tag", "lat=46"} {
		if strings.Contains(string(all), secret) {
			t.Errorf("%q reached the attempt", secret)
		}
	}
	t.Logf("network collector inside the preset: %d ms; %s", at.DurationMs, at.Summary)
}

func deref(p *int64) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprint(*p)
}

// BenchmarkNetworkInPreset is the network collector's time inside the whole
// preset on the simulated phone (latency model on) with its log buffer full:
// 5,000 lines, the app's OkHttp calls among its other lines. Budget 300 ms.
// Beside it, for the same log: the collector alone and the preset without it.
// cpu-ms/op is the process's CPU time per run, the simulated phone's included:
// on a loaded machine the wall time is mostly waiting for a core.
func BenchmarkNetworkInPreset(b *testing.B) {
	c, dev := simDevice(b, sim.Options{LatencyScale: 1, Logf: func(string, ...any) {}})
	// The demo's own calls log their lines (at OkHttp's BODY level, dozens) until
	// 1,620 ms after the app starts; logged among the planted lines they would push
	// the oldest planted call out of the phone's 5,000-line buffer.
	time.Sleep(1800 * time.Millisecond)
	for i := 0; i < 5000; i++ {
		var err error
		switch i % 5 {
		case 0:
			err = dev.AppLog("I", "okhttp.OkHttpClient", fmt.Sprintf("--> GET https://api.trailhead.test/v1/trails/%d", i))
		case 1:
			err = dev.AppLog("I", "okhttp.OkHttpClient", fmt.Sprintf("<-- 200 OK https://api.trailhead.test/v1/trails/%d (%dms)", i-1, i%1500))
		default:
			err = dev.AppLog("D", "TrailList", fmt.Sprintf("bound row %d", i))
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	sh := c.Device(dev.Serial())
	req := evidence.Request{Serial: dev.Serial(), Package: dev.Profile().App.Package, Since: time.Now().Add(-time.Hour), Store: store(b), SessionID: "bench"}
	run := func(b *testing.B, kinds ...evidence.Kind) {
		var network int64
		cpu0 := cpuTime()
		for b.Loop() {
			ats := evidence.CollectOnly(context.Background(), sh, req, kinds...)
			for _, at := range ats {
				if at.Status != evidence.StatusComplete {
					b.Fatalf("%s %+v", at.Kind, at)
				}
				if at.Kind == evidence.KindNetwork {
					if at.Network.Total < 1000 {
						b.Fatalf("network %+v", at)
					}
					network += at.DurationMs
				}
			}
		}
		b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
		if network > 0 {
			b.ReportMetric(float64(network)/float64(b.N), "network-ms/op")
		}
	}
	all := evidence.Kinds
	b.Run("preset", func(b *testing.B) { run(b, all...) })
	b.Run("alone", func(b *testing.B) { run(b, evidence.KindNetwork) })
	b.Run("preset-without-network", func(b *testing.B) { run(b, evidence.KindLogcat, evidence.KindFrames, evidence.KindMemory) })
}

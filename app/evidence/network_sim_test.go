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
// failure; a line the shell wrote with `log` is not the app's and stays out.
func TestNetworkFromTheSimulatedPhone(t *testing.T) {
	c, dev := simDevice(t, sim.Options{LatencyScale: 1})
	sh := c.Device(dev.Serial())
	if _, err := sh.Shell(context.Background(), `log -p i -t okhttp.OkHttpClient '--> GET https://shell.test/not-the-app'`); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1800 * time.Millisecond) // the demo's slowest call ends 1,620 ms after the app starts
	freeze := time.Now()
	a := evidence.Collect(context.Background(), sh, evidence.Request{Serial: dev.Serial(), Package: dev.Profile().App.Package,
		Since: freeze.Add(-evidence.DefaultLookback), Freeze: freeze, Store: store(t), SessionID: "s1"})
	at := kinds(a)[evidence.KindNetwork]
	n := at.Network
	if a.Status != evidence.StatusComplete || at.Status != evidence.StatusComplete || n == nil {
		t.Fatalf("attempt %+v", a)
	}
	got := map[string]string{}
	for _, r := range n.Requests {
		got[r.Method+" "+r.URL] = fmt.Sprintf("status=%d failed=%v error=%q ms=%v", r.Status, r.Failed, r.Error, deref(r.DurationMs))
	}
	want := map[string]string{
		"GET https://api.trailhead.test/v1/trails?[REDACTED]":  `status=200 failed=false error="" ms=182`,
		"GET https://cdn.trailhead.test/covers/42.jpg":         `status=200 failed=false error="" ms=1240`,
		"POST https://api.trailhead.test/v1/favourites":        `status=500 failed=false error="" ms=231`,
		"GET https://api.trailhead.test/v1/weather?[REDACTED]": `status=0 failed=true error="java.net.SocketTimeoutException: timeout" ms=-`,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) || n.Failed != 2 || n.Slow != 1 {
		t.Errorf("requests\n%v\nwant\n%v\n(failed %d, slow %d)", got, want, n.Failed, n.Slow)
	}
	all, _ := json.Marshal(a)
	for _, secret := range []string{"AIzaSy", "eyJhbGci", "shell.test", "lat=46"} {
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
func BenchmarkNetworkInPreset(b *testing.B) {
	c, dev := simDevice(b, sim.Options{LatencyScale: 1, Logf: func(string, ...any) {}})
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
	req := evidence.Request{Serial: dev.Serial(), Package: dev.Profile().App.Package, Since: time.Now().Add(-time.Hour), Store: store(b), SessionID: "bench"}
	var total int64
	for b.Loop() {
		a := evidence.Collect(context.Background(), c.Device(dev.Serial()), req)
		at := kinds(a)[evidence.KindNetwork]
		if at.Status != evidence.StatusComplete || at.Network.Total < 1000 {
			b.Fatalf("network %+v", at)
		}
		total += at.DurationMs
	}
	b.ReportMetric(float64(total)/float64(b.N), "network-ms/op")
}

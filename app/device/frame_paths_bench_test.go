package device

import (
	"context"
	"testing"
	"time"

	"fixthis/adb"
	"fixthis/adb/adbtest"
	"fixthis/capture"
	"fixthis/sim"
)

// BenchmarkFramePathsUSB2 is one full-resolution frame (1080×2400) over the usb2 link
// model (35 MB/s), the two ways a phone gives it: raw `screencap` (~10 MB, no encode
// on the phone; what FixThis asks first) and `screencap -p` (the phone encodes a PNG,
// 350 ms on the scenario's mid-range phone; far fewer bytes, decoded on the host).
// decode-ms is the host's decode alone.
func BenchmarkFramePathsUSB2(b *testing.B) {
	srv := adbtest.StartServer(b)
	dev := srv.ConnectSim(b, sim.Options{Scenario: "demo", LatencyScale: 1, Link: sim.Links["usb2"], Logf: func(string, ...any) {}})
	client, err := adb.NewClient(adb.Options{Port: srv.Port})
	if err != nil {
		b.Fatal(err)
	}
	d := client.Device(dev.Serial())
	ctx := context.Background()
	for _, cmd := range []string{"screencap", "screencap -p"} {
		b.Run(map[string]string{"screencap": "raw", "screencap -p": "png"}[cmd], func(b *testing.B) {
			var took, decode []time.Duration
			var bytes int
			for b.Loop() {
				start := time.Now()
				out, err := d.Exec(ctx, cmd)
				if err != nil {
					b.Fatal(err)
				}
				t := time.Now()
				if _, err := capture.DecodeFrame(out); err != nil {
					b.Fatal(err)
				}
				decode = append(decode, time.Since(t))
				took = append(took, time.Since(start))
				bytes = len(out)
			}
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
			b.ReportMetric(ms(p50(took)), "p50-ms")
			b.ReportMetric(ms(p50(decode)), "decode-ms")
			b.ReportMetric(float64(bytes)/(1<<20), "MiB")
		})
	}
}

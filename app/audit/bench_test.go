package audit

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fixthis/internal/bintest"
)

// avitoDump is the biggest real dump in the tests: 323 nodes, 1080×1920 at 480 dpi.
const avitoDump = "../../capture/testdata/kram1k__android_avito_parsing__search_hierarchy.xml"

// benchScreenshot is a 1080×1920 frame with text-like stripes, so the contrast checks
// build real histograms.
func benchScreenshot() *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, 1080, 1920))
	for y := 0; y < 1920; y++ {
		for x := 0; x < 1080; x++ {
			c := color.NRGBA{250, 250, 250, 255}
			if (x/3+y/5)%7 == 0 {
				c = color.NRGBA{uint8(x % 97), uint8(y % 89), 60, 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

// BenchmarkStaticAudit300 is every check on a 323-node screen with its screenshot
// (budget: 50 ms).
func BenchmarkStaticAudit300(b *testing.B) {
	in := readDumpFile(b, avitoDump)
	in.DensityDPI, in.Pixels = 480, benchScreenshot()
	for b.Loop() {
		if _, err := Run(in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProcessAudit300 is a whole `fixthis audit --json` process on the same dump
// and screenshot: start, parse, decode the PNG, audit, print (budget: 300 ms). Each
// round also runs, interleaved so all see the same load, the same audit without the
// screenshot (no decode, no contrast checks) and `fixthis version` (process start
// alone), so the figures say where the time goes: p50/p90 wall and CPU per process.
func BenchmarkProcessAudit300(b *testing.B) {
	bin := bintest.Fixthis(b, filepath.Join("..", ".."))
	shot := filepath.Join(b.TempDir(), "screen.png")
	f, err := os.Create(shot)
	if err != nil {
		b.Fatal(err)
	}
	if err := png.Encode(f, benchScreenshot()); err != nil {
		b.Fatal(err)
	}
	f.Close()
	audit := []string{"audit", "--dump", avitoDump, "--density", "480", "--json"}
	runs := []struct {
		metric string
		args   []string
		want   string
	}{
		{"", append(slices.Clone(audit), "--screenshot", shot), `"findings"`},
		{"noshot-", audit, `"findings"`},
		{"start-", []string{"version"}, "fixthis"},
	}
	wall := make([][]time.Duration, len(runs))
	cpu := make([][]time.Duration, len(runs))
	for b.Loop() {
		for i, r := range runs {
			if i > 0 {
				b.StopTimer()
			}
			cmd := exec.Command(bin, r.args...)
			start := time.Now()
			out, err := cmd.CombinedOutput()
			took := time.Since(start)
			if err != nil || !strings.Contains(string(out), r.want) {
				b.Fatalf("fixthis %s: %v\n%s", strings.Join(r.args, " "), err, out)
			}
			wall[i] = append(wall[i], took)
			cpu[i] = append(cpu[i], cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
			if i > 0 {
				b.StartTimer()
			}
		}
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	for i, r := range runs {
		b.ReportMetric(ms(quantile(wall[i], 0.5)), r.metric+"p50-ms")
		b.ReportMetric(ms(quantile(wall[i], 0.9)), r.metric+"p90-ms")
		b.ReportMetric(ms(quantile(cpu[i], 0.5)), r.metric+"cpu-ms")
	}
}

// quantile is the q-quantile of d (nearest rank).
func quantile(d []time.Duration, q float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

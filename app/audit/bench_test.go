package audit

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
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
	data, err := os.ReadFile(avitoDump)
	if err != nil {
		b.Fatal(err)
	}
	in, err := ReadDump(data)
	if err != nil {
		b.Fatal(err)
	}
	in.DensityDPI, in.Pixels = 480, benchScreenshot()
	for b.Loop() {
		if _, err := Run(in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProcessAudit300 is a whole `fixthis audit --json` process on the same dump
// and screenshot: start, parse, decode the PNG, audit, print (budget: 300 ms).
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
	var cpu time.Duration
	n := 0
	for b.Loop() {
		cmd := exec.Command(bin, "audit", "--dump", avitoDump, "--screenshot", shot, "--density", "480", "--json")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), `"findings"`) {
			b.Fatalf("fixthis audit: %v\n%s", err, out)
		}
		cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		n++
	}
	b.ReportMetric(float64(cpu.Milliseconds())/float64(n), "cpu-ms/op")
}

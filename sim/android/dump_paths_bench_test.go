// The three ways to get a uiautomator tree, compared over adb.
package android_test

import (
	"bytes"
	"context"
	"testing"

	"fixthis/adb/adbtest"
	"fixthis/sim"
)

// BenchmarkUIAutomatorDumpPaths compares the three ways to get a uiautomator tree
// over adb on the simulated phone, with its latency model on: the dump written to
// /dev/tty and read from exec's stdout, the dump written to a file then read with
// cat (and removed), and --compressed to /dev/tty. The simulated dump costs the same
// whichever path and --compressed drops nothing, so what differs here is the
// transfer and the extra shell calls; the device-side cost of each, and which nodes
// --compressed leaves out, need a real phone.
func BenchmarkUIAutomatorDumpPaths(b *testing.B) {
	p := adbtest.StartPhone(b, sim.Options{Scenario: "demo", Logf: adbtest.Quiet, LatencyScale: 1})
	dev := p.Client.Device(p.Serial())
	ctx := context.Background()
	const file = "/data/local/tmp/fixthis-dump.xml"
	paths := []struct {
		name string
		run  func() ([]byte, error)
	}{
		{"tty", func() ([]byte, error) { return dev.Exec(ctx, "uiautomator dump /dev/tty") }},
		{"file", func() ([]byte, error) {
			if _, err := dev.Shell(ctx, "uiautomator dump "+file); err != nil {
				return nil, err
			}
			out, err := dev.Exec(ctx, "cat "+file)
			dev.Shell(ctx, "rm -f "+file) //nolint:errcheck // cleanup, as capture does
			return out, err
		}},
		{"compressed", func() ([]byte, error) { return dev.Exec(ctx, "uiautomator dump --compressed /dev/tty") }},
	}
	for _, path := range paths {
		b.Run(path.name, func(b *testing.B) {
			for b.Loop() {
				out, err := path.run()
				if err != nil || !bytes.Contains(out, []byte("<hierarchy")) {
					b.Fatalf("%s: %v %.80q", path.name, err, out)
				}
			}
		})
	}
}

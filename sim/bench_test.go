// The device-side cost of the capture commands, without the transport.
package sim

import (
	"context"
	"io"
	"testing"
)

// BenchmarkDeviceCommands measures the device-side cost of the capture commands on
// the demo scenario with the latency model off: what remains is real work (the PNG
// encode, copying the frame, the XML).
func BenchmarkDeviceCommands(b *testing.B) {
	ctx := context.Background()
	d, err := Start(ctx, Options{Scenario: "demo"})
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	for _, cmd := range []string{"screencap", "screencap -p", "uiautomator dump /dev/tty", "dumpsys window"} {
		b.Run(cmd, func(b *testing.B) {
			for b.Loop() {
				if st := d.sys.Shell(ctx, cmd, nil, io.Discard, io.Discard); st != 0 {
					b.Fatalf("%s: exit %d", cmd, st)
				}
			}
		})
	}
}

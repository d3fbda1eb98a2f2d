package sim

import (
	"context"
	"image"
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
				if st := d.runScript(ctx, cmd, nil, io.Discard, io.Discard); st != 0 {
					b.Fatalf("%s: exit %d", cmd, st)
				}
			}
		})
	}
}

// BenchmarkRecordScrollStep measures what screenrecord does per picture while the demo
// list scrolls: render the moved list, scale it to a 304×688 preview, encode it.
func BenchmarkRecordScrollStep(b *testing.B) {
	d, err := Start(context.Background(), Options{Scenario: "demo"})
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	enc, err := newRecordEncoder(304, 688)
	if err != nil {
		b.Fatal(err)
	}
	r := &recorder{enc: enc, w: 304, h: 688, canvas: image.NewRGBA(image.Rect(0, 0, 304, 688))}
	se := d.Session()
	down := true
	for b.Loop() {
		if !se.Swipe(540, 1500, 540, 1480, 0) {
			down = !down
		}
		if !down {
			se.Swipe(540, 1480, 540, 1500, 0)
		}
		r.project(se.Frame())
		if _, _, err := r.enc.Encode(r.canvas, false); err != nil {
			b.Fatal(err)
		}
	}
}

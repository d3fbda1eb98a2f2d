// What screenrecord costs per picture while the demo scrolls.
package android

import (
	"image"
	"testing"

	"fixthis/sim/scenario"
)

// BenchmarkRecordScrollStep measures what screenrecord does per picture while the demo
// list scrolls: render the moved list, scale it to a 304×688 preview, encode it.
func BenchmarkRecordScrollStep(b *testing.B) {
	sc, err := scenario.Load("demo")
	if err != nil {
		b.Fatal(err)
	}
	enc, err := newRecordEncoder(304, 688)
	if err != nil {
		b.Fatal(err)
	}
	r := &recorder{enc: enc, w: 304, h: 688, canvas: image.NewRGBA(image.Rect(0, 0, 304, 688))}
	se := sc.NewSession()
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

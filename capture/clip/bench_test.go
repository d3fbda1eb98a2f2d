package clip

import (
	"image"
	"image/color"
	"testing"
	"time"

	"fixthis/internal/h264"
)

// BenchmarkCut5s cuts the last 5 s out of a full 10 s history of a 720×1600 stream
// at 60 pictures a second with a key frame every 10 s (what screenrecord asks its
// encoder for), where a 128-px spinner changes in every picture: about 12 Mbit/s,
// a phone's rate. history-bytes is the memory the history holds.
func BenchmarkCut5s(b *testing.B) {
	const w, h, fps = 720, 1600, 60
	enc, err := h264.NewEncoder(w, h)
	if err != nil {
		b.Fatal(err)
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 240
	}
	t0 := time.Unix(1_700_000_000, 0)
	hist := NewHistory[Sample](Window, 256<<20)
	var lastKey time.Time
	var end time.Time
	for i := 0; i < 12*fps; i++ {
		at := t0.Add(time.Duration(i) * time.Second / fps)
		for y := 700; y < 828; y++ {
			for x := 296; x < 424; x++ {
				img.SetRGBA(x, y, color.RGBA{uint8(i*7 + x), uint8(i*3 + y), uint8(i), 255})
			}
		}
		key := i == 0 || at.Sub(lastKey) >= 10*time.Second
		au, isKey, err := enc.Encode(img, key)
		if err != nil {
			b.Fatal(err)
		}
		if isKey {
			lastKey = at
			au = append(enc.Headers(), au...)
		}
		hist.Add(Entry[Sample]{At: at, Key: isKey, Bytes: len(au), Value: Sample{Data: au, Key: isKey, At: at}})
		end = at
	}
	end = end.Add(10 * time.Millisecond)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		from := end.Add(-5 * time.Second)
		kept, _ := hist.Since(from)
		in := make([]Sample, len(kept))
		for j, e := range kept {
			in[j] = e.Value
		}
		c, err := CutVideo(in, w, h, from, end, nil)
		if err != nil {
			b.Fatal(err)
		}
		if c.DurationMs != 5000 {
			b.Fatalf("duration %d", c.DurationMs)
		}
	}
	b.ReportMetric(float64(hist.Bytes()), "history-bytes")
}

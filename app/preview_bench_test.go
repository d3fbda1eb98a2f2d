package app

import (
	"context"
	"encoding/binary"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"fixthis/capture"
	"fixthis/sim/scenario"
)

// rawScreencap is what `exec:screencap` returns on Android 9+: width, height, format
// (1 = RGBA_8888) and dataspace as little-endian uint32s, then the pixels.
func rawScreencap(pix []byte, w, h int) []byte {
	out := make([]byte, 16, 16+len(pix))
	binary.LittleEndian.PutUint32(out[0:], uint32(w))
	binary.LittleEndian.PutUint32(out[4:], uint32(h))
	binary.LittleEndian.PutUint32(out[8:], 1)
	return append(out, pix...)
}

// demoFrames renders the demo's trail list at two scroll positions, as raw payloads.
func demoFrames(b *testing.B) [][]byte {
	b.Helper()
	sc, err := scenario.Load("demo")
	if err != nil {
		b.Fatalf("load the demo scenario: %v", err)
	}
	se := sc.NewSession()
	var frames [][]byte
	for i := range 2 {
		if i > 0 {
			se.Swipe(540, 1500, 540, 1200, 300*time.Millisecond)
		}
		img := se.Frame()
		frames = append(frames, rawScreencap(slices.Clone(img.Pix), img.Rect.Dx(), img.Rect.Dy()))
	}
	return frames
}

// BenchmarkFrameToPreviewReady is the budget "frame on host → preview-ready delivered
// to a browser" (≤ 50 ms): raw screencap bytes already read from adb → decode, change
// check, perceptual hash, preview JPEG, bus, SSE over loopback HTTP to a client; then
// the client fetches the JPEG by URL. It reports the median of both.
func BenchmarkFrameToPreviewReady(b *testing.B) {
	raws := demoFrames(b)
	a := New(Options{Mode: ModeServe, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	srv := httptest.NewServer(a.APIHandler())
	b.Cleanup(func() { a.Shutdown(); srv.Close() })

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/api/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatalf("open /api/events: %v", err)
	}
	defer resp.Body.Close()
	events := make(chan sseEvent, 64)
	go readSSE(resp.Body, events)

	var toEvent, toImage []float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		img, err := capture.DecodeFrame(raws[i%len(raws)])
		if err != nil {
			b.Fatal(err)
		}
		if changed, err := a.device.Preview.PublishFrame("bench", img, start); err != nil || !changed {
			b.Fatalf("publish frame %d: changed %v, %v", i, changed, err)
		}
		var ev sseEvent
		for ev.Type != "preview-ready" {
			var ok bool
			if ev, ok = <-events; !ok {
				b.Fatal("event stream ended")
			}
		}
		toEvent = append(toEvent, float64(ev.At.Sub(start).Microseconds())/1000)
		var pr previewReady
		if err := jsonInto(ev.Data, &pr); err != nil {
			b.Fatal(err)
		}
		r, err := http.Get(srv.URL + pr.URL)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, r.Body); err != nil || r.StatusCode != http.StatusOK {
			b.Fatalf("fetch %s: %d %v", pr.URL, r.StatusCode, err)
		}
		r.Body.Close()
		toImage = append(toImage, float64(time.Since(start).Microseconds())/1000)
	}
	b.StopTimer()
	slices.Sort(toEvent)
	slices.Sort(toImage)
	b.ReportMetric(toEvent[len(toEvent)/2], "p50-ms")
	b.ReportMetric(toImage[len(toImage)/2], "image-p50-ms")
}

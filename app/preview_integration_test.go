package app

import (
	"bytes"
	"context"
	"fixthis/app/device"
	"image/jpeg"
	"image/png"
	"net/http"
	"testing"
	"time"
)

// fetchPreview downloads a preview-ready frame and checks it is a JPEG of the
// device's aspect ratio.
func (e *testEnv) fetchPreview(pr previewReady) []byte {
	e.t.Helper()
	r := e.do("GET", pr.URL, nil, nil)
	if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "image/jpeg" {
		e.t.Fatalf("GET %s: %d %s", pr.URL, r.Status, r.Header.Get("Content-Type"))
	}
	img, err := jpeg.Decode(bytes.NewReader(r.Body))
	if err != nil {
		e.t.Fatalf("GET %s is not a JPEG: %v", pr.URL, err)
	}
	b := img.Bounds()
	if pr.Width == 0 || abs(b.Dx()*pr.Height-b.Dy()*pr.Width) > pr.Height {
		e.t.Errorf("preview %dx%d does not keep the device's %dx%d aspect", b.Dx(), b.Dy(), pr.Width, pr.Height)
	}
	return r.Body
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func previewStatusIs(state device.PreviewState) func(sseEvent) bool {
	return func(ev sseEvent) bool {
		var p struct {
			Status device.PreviewStatus `json:"status"`
		}
		return jsonInto(ev.Data, &p) == nil && p.Status.State == state
	}
}

// The live loop pushes frames while a console watches, follows a tap, stops while
// frozen and comes back on resume.
func TestPreviewLiveTapFreezeResume(t *testing.T) {
	env := newTestEnv(t)
	serial := env.sim.Serial()
	events := env.subscribe()

	first := decodeEvent[previewReady](t, events.next(10*time.Second, "preview-ready", nil))
	if first.Serial != serial || first.Width != 1080 || first.Height != 2400 || first.CapturedAt.IsZero() {
		t.Fatalf("preview-ready %+v", first)
	}
	firstJPEG := env.fetchPreview(first)

	// Find a trail card on the list screen.
	list := env.freeze()
	events.next(2*time.Second, "preview-status", previewStatusIs("frozen"))
	card := list.node(t, "trail_card_1")
	r := env.do("GET", list.ImageURL, nil, nil)
	if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("frozen image %s: %d %s", list.ImageURL, r.Status, r.Header.Get("Content-Type"))
	}
	if cfg, err := png.DecodeConfig(bytes.NewReader(r.Body)); err != nil || cfg.Width != 1080 || cfg.Height != 2400 {
		t.Fatalf("frozen image is not the full-resolution PNG: %+v %v", cfg, err)
	}
	env.mustJSON("POST", "/api/preview/resume", nil, nil)
	resumed := decodeEvent[previewReady](t, events.all(5*time.Second,
		eventWant{"preview-ready", nil}, eventWant{"preview-status", previewStatusIs("live")})[0])

	// A tap on the card opens the detail screen: a new, different frame.
	x, y := card.center()
	env.mustJSON("POST", "/api/preview/tap", map[string]int{"x": x, "y": y}, nil)
	detail := decodeEvent[previewReady](t, events.next(5*time.Second, "preview-ready", nil))
	if detail.PreviewID == resumed.PreviewID || detail.PreviewID == first.PreviewID {
		t.Errorf("tap produced no new preview id (%s)", detail.PreviewID)
	}
	if bytes.Equal(env.fetchPreview(detail), firstJPEG) {
		t.Errorf("preview after tapping %q at (%d,%d) is identical to the list", card.TestTag, x, y)
	}

	// Freeze on the detail screen: nodes, fingerprint, frozenId, status frozen.
	events.drain()
	fr := env.freeze()
	events.next(2*time.Second, "preview-status", previewStatusIs("frozen"))
	if fr.Screen.Fingerprint == list.Screen.Fingerprint {
		t.Errorf("detail screen has the list's fingerprint %s", fr.Screen.Fingerprint)
	}
	if fr.Screen.Package != "com.fixthis.demo" || fr.Screen.Width != 1080 || fr.Screen.Height != 2400 {
		t.Errorf("freeze screen %+v", fr.Screen)
	}
	fr.node(t, "Blue Lake Trail")

	// While frozen the device moves (BACK) but nothing is announced.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if res, err := env.client.Shell(ctx, serial, "input keyevent BACK"); err != nil || res.ExitCode != 0 {
		t.Fatalf("input keyevent BACK: %v %+v", err, res)
	}
	if ev, ok := events.find(800*time.Millisecond, "preview-ready", nil); ok {
		t.Fatalf("preview-ready while frozen: %s", ev.Data)
	}
	var p struct {
		Status device.PreviewStatus `json:"status"`
	}
	env.mustJSON("GET", "/api/preview", nil, &p)
	if p.Status.State != "frozen" {
		t.Errorf("GET /api/preview while frozen: status %+v", p.Status)
	}

	// Resume: live again, showing where the device is now (the list).
	env.mustJSON("POST", "/api/preview/resume", nil, nil)
	back := decodeEvent[previewReady](t, events.all(5*time.Second,
		eventWant{"preview-ready", nil}, eventWant{"preview-status", previewStatusIs("live")})[0])
	if bytes.Equal(env.fetchPreview(back), env.fetchPreview(detail)) {
		t.Errorf("after BACK and resume the preview still shows the detail screen")
	}
}

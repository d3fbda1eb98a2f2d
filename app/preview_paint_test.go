package app

import (
	"net/http"
	"strings"
	"testing"

	"fixthis/app/device"
)

func TestConsolePaintReports(t *testing.T) {
	e := newTestEnv(t)
	p50 := 21.0
	good := device.PaintReport{Transport: "h264", Decoder: "WebCodecs VideoDecoder (avc1.42E01E)", FramesPainted: 300, FPS: 52, LatencyMsP50: &p50}
	if r := e.do("POST", "/api/preview/stats", good, nil); r.Status != http.StatusNoContent {
		t.Fatalf("a good report: %d %s", r.Status, r.Body)
	}
	var doc device.PreviewDoc
	e.mustJSON("GET", "/api/preview", nil, &doc)
	if doc.Paint == nil || doc.Paint.Decoder != good.Decoder || doc.Paint.FramesPainted != 300 || doc.Paint.ReceivedAt == "" {
		t.Fatalf("GET /api/preview paint = %+v", doc.Paint)
	}
	neg := -1.0
	for name, bad := range map[string]any{
		"unknown transport":  device.PaintReport{Transport: "vp9"},
		"megabyte decoder":   device.PaintReport{Transport: "jpeg", Decoder: strings.Repeat("x", 1<<20)},
		"control characters": device.PaintReport{Transport: "jpeg", Decoder: "img\x00\n(JPEG)"},
		"negative frames":    device.PaintReport{Transport: "jpeg", FramesPainted: -5},
		"negative latency":   device.PaintReport{Transport: "jpeg", LatencyMsP50: &neg},
		"not an object":      []int{1, 2},
	} {
		if r := e.do("POST", "/api/preview/stats", bad, nil); r.Status != http.StatusUnprocessableEntity && r.Status != http.StatusBadRequest {
			t.Errorf("%s: %d %s, want 422 or 400", name, r.Status, r.Body)
		}
	}
	e.mustJSON("GET", "/api/preview", nil, &doc)
	if doc.Paint == nil || doc.Paint.Decoder != good.Decoder {
		t.Errorf("a refused report replaced the last good one: %+v", doc.Paint)
	}
}

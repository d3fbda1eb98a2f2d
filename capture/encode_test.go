package capture

import (
	"bytes"
	"image"
	"image/jpeg"
	"image/png"
	"testing"
)

func TestEncodePreview(t *testing.T) {
	img := testScreen(1080, 2400, 0)
	tests := []struct {
		opts         PreviewOptions
		wantW, wantH int
	}{
		{PreviewOptions{}, 324, 720},
		{PreviewOptions{MaxHeight: 480}, 216, 480},
		{PreviewOptions{MaxHeight: 4000}, 1080, 2400},
		{PreviewOptions{MaxHeight: 720, MaxWidth: 200}, 200, 444},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		w, h, err := EncodePreview(&buf, img, tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		if w != tt.wantW || h != tt.wantH {
			t.Errorf("%+v: size %dx%d, want %dx%d", tt.opts, w, h, tt.wantW, tt.wantH)
		}
		cfg, err := jpeg.DecodeConfig(&buf)
		if err != nil || cfg.Width != w || cfg.Height != h {
			t.Errorf("%+v: jpeg %+v %v", tt.opts, cfg, err)
		}
	}
}

func TestEncodeEvidenceAndCrop(t *testing.T) {
	img := testScreen(300, 600, 0)
	var buf bytes.Buffer
	if err := EncodeScreenPNG(&buf, img); err != nil {
		t.Fatal(err)
	}
	back, err := png.Decode(&buf)
	if err != nil || back.Bounds() != img.Rect {
		t.Fatalf("evidence png: %v %v", back.Bounds(), err)
	}

	tests := []struct {
		area   Bounds
		margin int
		want   Bounds
		ok     bool
	}{
		{Bounds{Left: 100, Top: 100, Right: 200, Bottom: 150}, 8, Bounds{Left: 92, Top: 92, Right: 208, Bottom: 158}, true},
		{Bounds{Left: 0, Top: 0, Right: 50, Bottom: 50}, 16, Bounds{Left: 0, Top: 0, Right: 66, Bottom: 66}, true},
		{Bounds{Left: 280, Top: 580, Right: 400, Bottom: 700}, 10, Bounds{Left: 270, Top: 570, Right: 300, Bottom: 600}, true},
		{Bounds{Left: 400, Top: 700, Right: 500, Bottom: 800}, 10, Bounds{}, false},
	}
	for _, tt := range tests {
		buf.Reset()
		got, err := EncodeCropPNG(&buf, img, tt.area, tt.margin)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("crop %+v: got %+v err %v", tt.area, got, err)
			continue
		}
		if !tt.ok {
			continue
		}
		c, err := png.Decode(&buf)
		if err != nil || c.Bounds().Dx() != got.Width() || c.Bounds().Dy() != got.Height() {
			t.Errorf("crop png %v %v", c.Bounds(), err)
		}
		if r, g, b, _ := c.At(tt.margin, tt.margin).RGBA(); tt.area.Left >= tt.margin && tt.area.Top >= tt.margin {
			r2, g2, b2, _ := img.At(tt.area.Left, tt.area.Top).RGBA()
			if r != r2 || g != g2 || b != b2 {
				t.Errorf("crop %+v does not start at the area", tt.area)
			}
		}
	}
}

// benchRaw is a 1080×2400 RGBA_8888 screencap payload, Android 9+ header.
func benchRaw() []byte { return rawFrame(testScreen(1080, 2400, 0), FormatRGBA8888, 16, 0) }

// BenchmarkFramePipeline is the live-preview budget: raw frame bytes → decoded image,
// perceptual hash, JPEG preview at the live loop's default settings (960 px).
func BenchmarkFramePipeline(b *testing.B) {
	raw := benchRaw()
	var out bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		img, _, err := DecodeRaw(raw)
		if err != nil {
			b.Fatal(err)
		}
		_ = PerceptualHash(img)
		out.Reset()
		if _, _, err := EncodePreview(&out, img, LivePreview(0)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(out.Len()), "jpeg-bytes")
}

func BenchmarkPerceptualHash(b *testing.B) {
	img, _, _ := DecodeRaw(benchRaw())
	for b.Loop() {
		_ = PerceptualHash(img)
	}
}

func BenchmarkScreenPNG(b *testing.B) {
	img, _, _ := DecodeRaw(benchRaw())
	var out bytes.Buffer
	for b.Loop() {
		out.Reset()
		if err := EncodeScreenPNG(&out, img); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(out.Len()), "png-bytes")
}

func BenchmarkDecodePNG(b *testing.B) {
	img, _, _ := DecodeRaw(benchRaw())
	var enc bytes.Buffer
	if err := EncodeScreenPNG(&enc, img); err != nil {
		b.Fatal(err)
	}
	var _ image.Image
	for b.Loop() {
		if _, err := DecodePNG(enc.Bytes()); err != nil {
			b.Fatal(err)
		}
	}
}

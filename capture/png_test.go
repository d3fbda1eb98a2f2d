package capture

import (
	"bytes"
	"hash/adler32"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"testing"

	"fixthis/sim/scenario"
)

// demoFrame is a realistic 1080×2400 screen: the simulated phone's demo app.
func demoFrame(tb testing.TB) *image.NRGBA {
	tb.Helper()
	sc, err := scenario.Load("demo")
	if err != nil {
		tb.Fatal(err)
	}
	f := sc.NewSession().Frame()
	return &image.NRGBA{Pix: f.Pix, Stride: f.Stride, Rect: f.Rect}
}

func noise(w, h int, seed uint64) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(seed, 1))
	for i := range img.Pix {
		img.Pix[i] = byte(r.Uint32())
		if i%4 == 3 {
			img.Pix[i] = 0xff
		}
	}
	return img
}

// assertSamePixels decodes data with image/png (which checks every CRC and the zlib
// checksum) and compares each pixel with want's.
func assertSamePixels(t *testing.T, name string, data []byte, want image.Image) {
	t.Helper()
	got, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: decode: %v", name, err)
	}
	wb, gb := want.Bounds(), got.Bounds()
	if wb.Dx() != gb.Dx() || wb.Dy() != gb.Dy() {
		t.Fatalf("%s: size %v, want %v", name, gb.Size(), wb.Size())
	}
	for y := 0; y < wb.Dy(); y++ {
		for x := 0; x < wb.Dx(); x++ {
			w := color.NRGBAModel.Convert(want.At(wb.Min.X+x, wb.Min.Y+y))
			g := color.NRGBAModel.Convert(got.At(gb.Min.X+x, gb.Min.Y+y))
			if w != g {
				t.Fatalf("%s: pixel (%d,%d) = %v, want %v", name, x, y, g, w)
			}
		}
	}
}

func TestScreenPNGExactPixels(t *testing.T) {
	demo := demoFrame(t)
	translucent := noise(300, 200, 3)
	translucent.Pix[4*(150*300+7)+3] = 0x80
	rgba := image.NewRGBA(image.Rect(0, 0, 70, 500))
	for i := range rgba.Pix {
		rgba.Pix[i] = byte(i * 7)
		if i%4 == 3 {
			rgba.Pix[i] = 0xff
		}
	}
	gray := image.NewGray(image.Rect(0, 0, 40, 30))
	for i := range gray.Pix {
		gray.Pix[i] = byte(i)
	}
	cases := map[string]image.Image{
		"demo frame":       demo,
		"noise 1080x2400":  noise(1080, 2400, 1), // incompressible: deflate stores it
		"one pixel":        noise(1, 1, 2),
		"one column":       noise(1, 1000, 4),
		"odd band split":   noise(333, 4097, 5),
		"sub-image":        demo.SubImage(image.Rect(101, 333, 900, 2001)),
		"translucent":      translucent, // falls back to image/png, keeps alpha
		"rgba opaque":      rgba,
		"other image type": gray,
	}
	for name, img := range cases {
		var buf bytes.Buffer
		if err := EncodeScreenPNG(&buf, img); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		assertSamePixels(t, name, buf.Bytes(), img)
	}
}

func TestScreenPNGSize(t *testing.T) {
	// Splitting into bands must not cost more than a few percent over image/png's
	// own BestSpeed output.
	img := demoFrame(t)
	var fast, std bytes.Buffer
	if err := EncodeScreenPNG(&fast, img); err != nil {
		t.Fatal(err)
	}
	if err := stdPNG(&std, img); err != nil {
		t.Fatal(err)
	}
	if fast.Len() > std.Len()*11/10 {
		t.Errorf("banded PNG is %d bytes, image/png %d", fast.Len(), std.Len())
	}
}

func TestAdler32Combine(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	data := make([]byte, 300_000)
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	for _, cut := range []int{0, 1, 5551, 65521, 65522, 150_000, len(data)} {
		a, b := data[:cut], data[cut:]
		got := adler32Combine(adler32.Checksum(a), adler32.Checksum(b), int64(len(b)))
		if want := adler32.Checksum(data); got != want {
			t.Errorf("cut %d: %08x, want %08x", cut, got, want)
		}
	}
}

// BenchmarkScreenPNGDemo encodes the demo app's 1080×2400 frame as a screen PNG.
func BenchmarkScreenPNGDemo(b *testing.B) {
	img := demoFrame(b)
	var out bytes.Buffer
	for b.Loop() {
		out.Reset()
		if err := EncodeScreenPNG(&out, img); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(out.Len()), "png-bytes")
}

// BenchmarkStdPNGDemo is the same frame through image/png at BestSpeed, for comparison.
func BenchmarkStdPNGDemo(b *testing.B) {
	img := demoFrame(b)
	var out bytes.Buffer
	for b.Loop() {
		out.Reset()
		if err := stdPNG(&out, img); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(out.Len()), "png-bytes")
}

package capture

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"image/color"
	"image/png"
	"testing"
)

// testScreen paints a phone-like screen: an app bar, list rows with icons and
// "text" stripes, and a button, so hashes and encoders see real structure.
func testScreen(w, h int, variant int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	fill := func(x0, y0, x1, y1 int, c color.NRGBA) {
		for y := max(0, y0); y < min(h, y1); y++ {
			for x := max(0, x0); x < min(w, x1); x++ {
				i := y*img.Stride + 4*x
				img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
			}
		}
	}
	fill(0, 0, w, h, color.NRGBA{250, 248, 255, 255})
	fill(0, 0, w, h/12, color.NRGBA{103, 80, 164, 255})
	row := h / 10
	for i := 0; i < 8; i++ {
		y := h/12 + i*row + variant*row/3
		fill(w/30, y+row/5, w/30+row*6/10, y+row*8/10, color.NRGBA{uint8(40 * i), 120, 200, 255})
		for s := 0; s < 3; s++ {
			fill(w/5, y+row/5+s*row/5, w/5+w*(5-s+i%3)/10, y+row/5+s*row/5+row/10, color.NRGBA{30, 30, 30, 255})
		}
	}
	fill(w*6/10, h*85/100, w*95/100, h*92/100, color.NRGBA{103, 80, 164, 255})
	return img
}

// rawFrame encodes img the way screencap does: header, then rows padded to stride.
func rawFrame(img *image.NRGBA, format PixelFormat, header, stridePx int) []byte {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	bpp := format.BytesPerPixel()
	if stridePx < w {
		stridePx = w
	}
	buf := make([]byte, header+stridePx*bpp*h)
	binary.LittleEndian.PutUint32(buf[0:], uint32(w))
	binary.LittleEndian.PutUint32(buf[4:], uint32(h))
	binary.LittleEndian.PutUint32(buf[8:], uint32(format))
	if header == 16 {
		binary.LittleEndian.PutUint32(buf[12:], 143261696) // sRGB dataspace
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			s := img.Pix[y*img.Stride+4*x:]
			d := buf[header+(y*stridePx+x)*bpp:]
			switch format {
			case FormatRGBA8888:
				copy(d, s[:4])
			case FormatRGBX8888:
				copy(d, s[:3])
				d[3] = 0x17 // undefined X byte
			case FormatBGRA8888:
				d[0], d[1], d[2], d[3] = s[2], s[1], s[0], s[3]
			case FormatRGB888:
				copy(d, s[:3])
			case FormatRGB565:
				v := uint16(s[0]>>3)<<11 | uint16(s[1]>>2)<<5 | uint16(s[2]>>3)
				d[0], d[1] = byte(v), byte(v>>8)
			}
		}
	}
	return buf
}

func TestDecodeRawFormats(t *testing.T) {
	src := testScreen(60, 100, 0)
	tests := []struct {
		name           string
		format         PixelFormat
		header, stride int
		tolerance      int
	}{
		{"rgba android9", FormatRGBA8888, 16, 0, 0},
		{"rgba android8", FormatRGBA8888, 12, 0, 0},
		{"rgba odd stride", FormatRGBA8888, 16, 64, 0},
		{"rgba old stride", FormatRGBA8888, 12, 64, 0},
		{"rgbx", FormatRGBX8888, 16, 0, 0},
		{"bgra", FormatBGRA8888, 16, 0, 0},
		{"rgb888", FormatRGB888, 16, 0, 0},
		{"rgb565", FormatRGB565, 12, 0, 8},
		{"rgb565 stride", FormatRGB565, 16, 64, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			img, h, err := DecodeRaw(rawFrame(src, tt.format, tt.header, tt.stride))
			if err != nil {
				t.Fatal(err)
			}
			if h.HeaderSize != tt.header || h.Format != tt.format {
				t.Errorf("header = %+v", h)
			}
			if img.Rect != src.Rect {
				t.Fatalf("rect %v, want %v", img.Rect, src.Rect)
			}
			for y := 0; y < 100; y++ {
				for x := 0; x < 60; x++ {
					a, b := img.NRGBAAt(x, y), src.NRGBAAt(x, y)
					if absDiff(a.R, b.R) > tt.tolerance || absDiff(a.G, b.G) > tt.tolerance ||
						absDiff(a.B, b.B) > tt.tolerance || a.A != 255 {
						t.Fatalf("pixel %d,%d = %v, want %v", x, y, a, b)
					}
				}
			}
		})
	}
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

func TestDecodeRawSharesPayload(t *testing.T) {
	data := rawFrame(testScreen(8, 8, 0), FormatRGBA8888, 16, 0)
	img, _, err := DecodeRaw(data)
	if err != nil {
		t.Fatal(err)
	}
	if &img.Pix[0] != &data[16] {
		t.Error("RGBA_8888 payload was copied")
	}
}

func TestDecodeRawErrors(t *testing.T) {
	good := rawFrame(testScreen(20, 30, 0), FormatRGBA8888, 16, 0)
	bad := func(mut func([]byte)) []byte {
		b := bytes.Clone(good)
		mut(b)
		return b
	}
	tests := []struct {
		name string
		in   []byte
		want error
	}{
		{"empty", nil, ErrTruncatedFrame},
		{"header only", good[:16], ErrTruncatedFrame},
		{"half the pixels", good[:len(good)/2], ErrTruncatedFrame},
		{"one byte short of 12-byte header fit", good[:len(good)-5], ErrTruncatedFrame},
		{"unknown format", bad(func(b []byte) { b[8] = 9 }), ErrMalformedFrame},
		{"zero width", bad(func(b []byte) { b[0] = 0 }), ErrMalformedFrame},
		{"huge height", bad(func(b []byte) { b[7] = 0x7f }), ErrMalformedFrame},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := DecodeRaw(tt.in)
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestDecodeFramePNGAndWarnings(t *testing.T) {
	src := testScreen(30, 40, 1)
	var buf bytes.Buffer
	if err := png.Encode(&buf, src); err != nil {
		t.Fatal(err)
	}
	warn := []byte("[Warning] Multiple displays were found, but no display id was specified! Defaulting to the first display found.\n")
	for name, in := range map[string][]byte{
		"png":         buf.Bytes(),
		"png+warning": append(bytes.Clone(warn), buf.Bytes()...),
		"raw+warning": append(bytes.Clone(warn), rawFrame(src, FormatRGBA8888, 16, 0)...),
		"raw 12-byte": rawFrame(src, FormatRGBX8888, 12, 0),
	} {
		img, err := DecodeFrame(in)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if img.NRGBAAt(3, 39) != src.NRGBAAt(3, 39) || img.Rect != src.Rect {
			t.Errorf("%s: decoded image differs", name)
		}
	}
	if _, err := DecodePNG([]byte("\x89PNG\r\n\x1a\nnope")); err == nil {
		t.Error("broken PNG decoded")
	}
}

func TestUpright(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 4, 2))
	img.SetNRGBA(0, 0, color.NRGBA{255, 0, 0, 255}) // top-left marker
	for rot, want := range map[int]image.Point{0: {0, 0}, 1: {0, 3}, 2: {3, 1}, 3: {1, 0}} {
		out := Upright(img, rot)
		if out.NRGBAAt(want.X, want.Y).R != 255 {
			t.Errorf("rotation %d: marker not at %v (size %v)", rot, want, out.Rect.Size())
		}
	}
}

func TestPerceptualHash(t *testing.T) {
	a := PerceptualHash(testScreen(1080, 2400, 0))
	if a == 0 {
		t.Fatal("hash of a structured screen is 0")
	}
	if b := PerceptualHash(testScreen(1080, 2400, 0)); a != b {
		t.Errorf("same screen, different hash %x %x", a, b)
	}
	small := testScreen(540, 1200, 0)
	if d := HammingDistance(a, PerceptualHash(small)); d > 6 {
		t.Errorf("downscaled screen is %d bits away", d)
	}
	if d := HammingDistance(a, PerceptualHash(testScreen(1080, 2400, 2))); d < 8 {
		t.Errorf("scrolled screen only %d bits away", d)
	}
	var rgba image.Image = &image.RGBA{Pix: small.Pix, Stride: small.Stride, Rect: small.Rect}
	if PerceptualHash(rgba) != PerceptualHash(small) {
		t.Error("RGBA and NRGBA views of an opaque frame hash differently")
	}
	gray := image.NewGray(small.Rect)
	if PerceptualHash(gray) != 0 {
		t.Error("a flat image should hash to 0")
	}
	if FormatHash(0xab) != "00000000000000ab" {
		t.Error(FormatHash(0xab))
	}
}

// RawFrameSize announces the whole output from its first bytes, so a frame is read
// into one buffer; anything that is no raw header announces nothing.
func TestRawFrameSize(t *testing.T) {
	src := testScreen(30, 40, 1)
	warn := []byte("[Warning] Multiple displays were found, but no display id was specified! Defaulting to the first display found.\n")
	var pngOut bytes.Buffer
	if err := png.Encode(&pngOut, src); err != nil {
		t.Fatal(err)
	}
	huge := rawFrame(testScreen(2, 2, 0), FormatRGBA8888, 16, 0)
	binary.LittleEndian.PutUint32(huge[0:], 1<<16) // wider than any screen
	unknown := rawFrame(testScreen(2, 2, 0), FormatRGBA8888, 16, 0)
	binary.LittleEndian.PutUint32(unknown[8:], 99)
	for _, tc := range []struct {
		name string
		in   []byte
		want int
	}{
		{"RGBA, 16-byte header", rawFrame(src, FormatRGBA8888, 16, 0), 16 + 30*40*4},
		{"RGBX, 12-byte header: 4 bytes over", rawFrame(src, FormatRGBX8888, 12, 0), 16 + 30*40*4},
		{"RGB565", rawFrame(src, FormatRGB565, 16, 0), 16 + 30*40*2},
		{"after a warning line", append(bytes.Clone(warn), rawFrame(src, FormatRGBA8888, 16, 0)...), len(warn) + 16 + 30*40*4},
		{"only the first bytes", rawFrame(src, FormatRGBA8888, 16, 0)[:64], 16 + 30*40*4},
		{"png", pngOut.Bytes(), 0},
		{"shorter than a header", []byte{1, 0, 0, 0, 1, 0}, 0},
		{"unknown format", unknown, 0},
		{"implausible width", huge, 0},
		{"empty", nil, 0},
	} {
		if got := RawFrameSize(tc.in); got != tc.want {
			t.Errorf("%s: RawFrameSize = %d, want %d", tc.name, got, tc.want)
		}
	}
}

func FuzzDecodeRaw(f *testing.F) {
	img := testScreen(6, 5, 0)
	for _, format := range []PixelFormat{FormatRGBA8888, FormatRGBX8888, FormatRGB888, FormatRGB565, FormatBGRA8888} {
		f.Add(rawFrame(img, format, 16, 0))
		f.Add(rawFrame(img, format, 12, 7))
	}
	f.Add([]byte("[Warning] foo bar baz\n\x01\x00\x00\x00\x01\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00abcd"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if n := RawFrameSize(data); n < 0 {
			t.Fatalf("RawFrameSize = %d", n)
		}
		out, err := DecodeFrame(data)
		if err != nil {
			return
		}
		b := out.Bounds()
		if b.Dx() <= 0 || b.Dy() <= 0 {
			t.Fatalf("decoded an empty image %v", b)
		}
		// Touch the last pixel: the buffer must really hold the whole image.
		_ = out.NRGBAAt(b.Max.X-1, b.Max.Y-1)
		if len(out.Pix) < out.PixOffset(b.Max.X-1, b.Max.Y-1)+4 {
			t.Fatal("pixel buffer shorter than the image")
		}
	})
}

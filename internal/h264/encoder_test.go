package h264

import (
	"bytes"
	"image"
	"image/color"
	"math/rand"
	"testing"

	"fixthis/internal/h264/h264test"
)

// screen draws a phone-like frame: a flat background, a list of coloured rows shifted
// by scroll, and a noisy patch that exercises every sample value.
func screen(w, h, scroll int, seed int64) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	rng := rand.New(rand.NewSource(seed))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.RGBA{250, 250, 250, 255}
			if row := (y + scroll) / 24; y > h/4 && (y+scroll)%24 < 20 {
				c = color.RGBA{uint8(row * 40), uint8(255 - row*20), uint8(row * 90), 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	for y := 0; y < h/8; y++ {
		for x := 0; x < w/3; x++ {
			img.SetRGBA(x, y, color.RGBA{uint8(rng.Intn(256)), uint8(rng.Intn(256)), uint8(rng.Intn(256)), 255})
		}
	}
	return img
}

func TestEncodeDecodesExactlyWithFFmpeg(t *testing.T) {
	for _, size := range []image.Point{{64, 48}, {200, 118}, {360, 800}} {
		w, h := size.X, size.Y
		enc, err := NewEncoder(w, h)
		if err != nil {
			t.Fatal(err)
		}
		var stream []byte
		var want []*image.YCbCr
		frames := []*image.RGBA{
			screen(w, h, 0, 1),
			screen(w, h, 0, 1),  // unchanged: no access unit
			screen(w, h, 7, 1),  // the list scrolled
			screen(w, h, 7, 2),  // only the noisy patch changed
			screen(w, h, 31, 3), // both
		}
		for i, f := range frames {
			au, key, err := enc.Encode(f, false)
			if err != nil {
				t.Fatal(err)
			}
			if key != (i == 0) {
				t.Errorf("%dx%d frame %d: key=%v", w, h, i, key)
			}
			if i == 1 {
				if au != nil {
					t.Errorf("%dx%d: an unchanged frame produced %d bytes", w, h, len(au))
				}
				continue
			}
			stream = append(stream, au...)
			want = append(want, YCbCr(f))
		}
		// A forced key frame in the middle of the stream restarts the reference.
		au, key, err := enc.Encode(frames[4], true)
		if err != nil || !key || !bytes.HasPrefix(au, enc.Headers()) {
			t.Fatalf("forced key frame: key=%v err=%v", key, err)
		}
		stream = append(stream, au...)
		want = append(want, YCbCr(frames[4]))

		got := h264test.Decode(t, stream, w, h)
		if len(got) != len(want) {
			t.Fatalf("%dx%d: decoded %d frames, want %d", w, h, len(got), len(want))
		}
		for i := range want {
			if d := h264test.Diff(got[i], want[i]); d != "" {
				t.Errorf("%dx%d frame %d differs: %s", w, h, i, d)
			}
		}
	}
}

func TestPFrameCodesOnlyChangedMacroblocks(t *testing.T) {
	enc, err := NewEncoder(160, 160) // 10×10 macroblocks
	if err != nil {
		t.Fatal(err)
	}
	base := image.NewRGBA(image.Rect(0, 0, 160, 160))
	idr, _, _ := enc.Encode(base, false)
	next := image.NewRGBA(base.Rect)
	copy(next.Pix, base.Pix)
	next.SetRGBA(20, 20, color.RGBA{255, 0, 0, 255}) // inside one macroblock
	p, key, err := enc.Encode(next, false)
	if err != nil || key {
		t.Fatalf("key=%v err=%v", key, err)
	}
	if len(idr) < 100*384 {
		t.Errorf("IDR is %d bytes, want all 100 macroblocks as PCM", len(idr))
	}
	if len(p) < 384 || len(p) > 384+32 {
		t.Errorf("P frame is %d bytes, want one PCM macroblock plus headers", len(p))
	}
}

func TestNewEncoderRejectsBadSizes(t *testing.T) {
	for _, s := range [][2]int{{0, 10}, {11, 10}, {10, 7}, {-2, 4}, {16384, 16384}} {
		if _, err := NewEncoder(s[0], s[1]); err == nil {
			t.Errorf("NewEncoder(%d, %d) accepted", s[0], s[1])
		}
	}
}

func TestEmulationPrevention(t *testing.T) {
	got := appendNAL(nil, 0, NALSEI, []byte{0, 0, 0, 0, 0, 1, 0, 0, 3, 0, 0, 4, 0x80})
	want := []byte{0, 0, 0, 1, 6, 0, 0, 3, 0, 0, 3, 0, 1, 0, 0, 3, 3, 0, 0, 4, 0x80}
	if !bytes.Equal(got, want) {
		t.Errorf("got % x\nwant % x", got, want)
	}
}

func TestExpGolomb(t *testing.T) {
	var w bitWriter
	for _, v := range []uint32{0, 1, 2, 3, 7} {
		w.ue(v)
	}
	w.se(-1)
	w.trailing()
	// 1 010 011 00100 0001000 011 then the stop bit.
	want := []byte{0b10100110, 0b01000001, 0b00001110}
	if !bytes.Equal(w.buf, want) {
		t.Errorf("got %08b want %08b", w.buf, want)
	}
}

func BenchmarkEncodeScroll(b *testing.B) {
	enc, _ := NewEncoder(400, 888)
	a, c := screen(400, 888, 0, 1), screen(400, 888, 24, 1)
	enc.Encode(a, false)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			enc.Encode(c, false)
		} else {
			enc.Encode(a, false)
		}
	}
}

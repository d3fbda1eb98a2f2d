// Package h264test decodes H.264 streams with ffmpeg, an independent decoder, so
// tests can check that what this project encodes or relays is valid and exact.
package h264test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// FFmpeg returns the ffmpeg binary. Without one the test is skipped on a workstation
// but fails where FIXTHIS_REQUIRE_FFMPEG or CI is set (make test sets the former), so
// a CI machine without ffmpeg cannot pass the video checks by skipping them.
func FFmpeg(t testing.TB) string {
	t.Helper()
	bin, err := exec.LookPath("ffmpeg")
	if err == nil {
		return bin
	}
	if os.Getenv("FIXTHIS_REQUIRE_FFMPEG") != "" || os.Getenv("CI") != "" {
		t.Fatalf("ffmpeg is required to check video streams (Debian/Ubuntu: apt-get install ffmpeg): %v", err)
	}
	t.Skip("ffmpeg is not installed (Debian/Ubuntu: apt-get install ffmpeg); skipping the video decode check")
	return ""
}

// Decode decodes an Annex-B H.264 stream of w×h pictures into 4:2:0 frames, in
// output order. Any message ffmpeg prints at error level fails the test.
func Decode(t testing.TB, stream []byte, w, h int) []*image.YCbCr {
	t.Helper()
	bin := FFmpeg(t)
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.h264"), filepath.Join(dir, "out.yuv")
	if err := os.WriteFile(in, stream, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, "-nostdin", "-v", "error", "-f", "h264", "-i", in,
		"-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-y", out)
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("ffmpeg decode: %v: %s", err, stderr.String())
	}
	if stderr.Len() > 0 {
		t.Fatalf("ffmpeg reported errors decoding the stream:\n%s", stderr.String())
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	size := w*h + 2*(w/2)*(h/2)
	if len(raw)%size != 0 {
		t.Fatalf("decoded %d bytes, not a whole number of %dx%d frames", len(raw), w, h)
	}
	var frames []*image.YCbCr
	for off := 0; off < len(raw); off += size {
		f := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
		copy(f.Y, raw[off:off+w*h])
		copy(f.Cb, raw[off+w*h:off+w*h+(w/2)*(h/2)])
		copy(f.Cr, raw[off+w*h+(w/2)*(h/2):off+size])
		frames = append(frames, f)
	}
	return frames
}

// Diff describes the first sample where a and b differ, or returns "" when equal.
func Diff(a, b *image.YCbCr) string {
	if a.Rect != b.Rect {
		return fmt.Sprintf("size %v vs %v", a.Rect, b.Rect)
	}
	w, h := a.Rect.Dx(), a.Rect.Dy()
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if p, q := a.Y[a.YOffset(x, y)], b.Y[b.YOffset(x, y)]; p != q {
				return fmt.Sprintf("Y at (%d,%d): %d vs %d", x, y, p, q)
			}
			if x%2 == 0 && y%2 == 0 {
				c, d := a.COffset(x, y), b.COffset(x, y)
				if a.Cb[c] != b.Cb[d] || a.Cr[c] != b.Cr[d] {
					return fmt.Sprintf("CbCr at (%d,%d): %d,%d vs %d,%d", x, y, a.Cb[c], a.Cr[c], b.Cb[d], b.Cr[d])
				}
			}
		}
	}
	return ""
}

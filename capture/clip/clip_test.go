package clip

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"fixthis/internal/h264"
	"fixthis/internal/h264/h264test"
)

// scrolled draws a list shifted by scroll pixels.
func scrolled(w, h, scroll int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		row := (y + scroll) / 24
		for x := 0; x < w; x++ {
			c := color.RGBA{250, 250, 250, 255}
			if (y+scroll)%24 < 18 {
				c = color.RGBA{uint8(row * 40), uint8(255 - row*20), uint8(row * 90), 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	return img
}

// stream codes a scroll at fps for d as the phone's encoder would, a key frame every
// keyEvery, and returns the pictures with their arrival times from t0.
func stream(t testing.TB, w, h, fps int, d, keyEvery time.Duration, t0 time.Time) []Sample {
	t.Helper()
	enc, err := h264.NewEncoder(w, h)
	if err != nil {
		t.Fatal(err)
	}
	var out []Sample
	var lastKey time.Time
	n := int(d.Seconds() * float64(fps))
	for i := 0; i < n; i++ {
		at := t0.Add(time.Duration(i) * time.Second / time.Duration(fps))
		key := i == 0 || at.Sub(lastKey) >= keyEvery
		au, isKey, err := enc.Encode(scrolled(w, h, i*2), key)
		if err != nil {
			t.Fatal(err)
		}
		if isKey {
			lastKey = at
			au = append(enc.Headers(), au...)
		}
		out = append(out, Sample{Data: au, Key: isKey, At: at})
	}
	return out
}

// probe reads a clip with ffprobe, which counts the frames it decodes.
func probe(t *testing.T, mp4 []byte) h264test.Probed {
	t.Helper()
	p := filepath.Join(t.TempDir(), "clip.mp4")
	if err := os.WriteFile(p, mp4, 0o600); err != nil {
		t.Fatal(err)
	}
	return h264test.Probe(t, p)
}

func TestCutVideoPlaysAsAskedWithFFprobe(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	samples := stream(t, 176, 320, 30, 12*time.Second, 3*time.Second, t0)
	h := NewHistory[Sample](Window, 64<<20)
	for _, s := range samples {
		h.Add(Entry[Sample]{At: s.At, Key: s.Key, Bytes: len(s.Data), Value: s})
	}
	// The cut comes a little after the last picture arrived.
	end := samples[len(samples)-1].At.Add(20 * time.Millisecond)
	for _, secs := range []int{1, 5, 9} {
		from := end.Add(-time.Duration(secs) * time.Second)
		kept, ok := h.Since(from)
		if !ok {
			t.Fatalf("%ds: history does not reach back", secs)
		}
		before := bytes.Clone(kept[0].Value.Data)
		var in []Sample
		for _, e := range kept {
			in = append(in, e.Value)
		}
		c, err := CutVideo(in, 176, 320, from, end, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(before, kept[0].Value.Data) {
			t.Fatal("muxing changed the kept pictures")
		}
		p := probe(t, c.MP4)
		want := float64(secs)
		if p.Codec != "h264" || p.Width != 176 || p.Height != 320 {
			t.Errorf("%ds: ffprobe sees %+v", secs, p)
		}
		if p.Duration < want*0.9 || p.Duration > want*1.1 {
			t.Errorf("%ds: duration %.3fs, want within 10%%", secs, p.Duration)
		}
		if p.Frames != c.Frames || p.Frames != len(in) {
			t.Errorf("%ds: ffprobe decoded %d frames, clip says %d, %d muxed", secs, p.Frames, c.Frames, len(in))
		}
		if c.DurationMs != int64(secs*1000) {
			t.Errorf("%ds: durationMs %d", secs, c.DurationMs)
		}
	}
}

func TestCutFramesMakesH264WithStripAndTimeline(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	var frames []Frame
	// 2 s of scrolling at 10 fps, a 600 ms stall (no new frame), 1 s more scrolling.
	at := t0
	for i := 0; i < 20; i++ {
		frames = append(frames, Frame{Image: scrolled(120, 240, i*3), At: at})
		at = at.Add(100 * time.Millisecond)
	}
	at = at.Add(500 * time.Millisecond)
	for i := 20; i < 30; i++ {
		frames = append(frames, Frame{Image: scrolled(120, 240, i*3), At: at})
		at = at.Add(100 * time.Millisecond)
	}
	c, err := CutFrames(frames, t0, t0.Add(4*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	p := probe(t, c.MP4)
	if p.Codec != "h264" || p.Frames != 30 || p.Duration < 3.6 || p.Duration > 4.4 {
		t.Errorf("ffprobe sees %+v", p)
	}
	if c.Timeline.Stalls != 1 || c.Timeline.LongestMs != 600 {
		t.Errorf("timeline stalls %d longest %d, want 1 of 600ms: %s", c.Timeline.Stalls, c.Timeline.LongestMs, c.Timeline.Summary())
	}
	if ch := c.Timeline.Changes[5].Changed; ch <= 0 || ch > 1 {
		t.Errorf("a scrolled frame changed %v of the picture: %+v", ch, c.Timeline.Changes[:8])
	}
	img, err := png.Decode(bytes.NewReader(c.Strip))
	if err != nil {
		t.Fatalf("strip does not decode: %v", err)
	}
	// 8 thumbnails 160 wide (120×240 scaled to 320 high), 4 px apart.
	if b := img.Bounds(); b.Dx() != 8*160+7*4 || b.Dy() != stripThumbHeight+stripLabel {
		t.Errorf("strip is %v", b)
	}
	want := "0.0s–1.9s moving (20 pictures) · held 1.9s for 600ms · 2.5s–3.4s moving (10 pictures) · still from 3.4s to the end"
	if got := c.Timeline.Summary(); got != want {
		t.Errorf("summary\n got %s\nwant %s", got, want)
	}
}

func TestCutRejectsNothing(t *testing.T) {
	if _, err := CutVideo(nil, 16, 16, time.Now(), time.Now(), nil); err != ErrNoPictures {
		t.Errorf("CutVideo(nil) = %v", err)
	}
	if _, err := CutFrames(nil, time.Now(), time.Now()); err != ErrNoPictures {
		t.Errorf("CutFrames(nil) = %v", err)
	}
	s := stream(t, 32, 32, 10, time.Second, time.Hour, time.Now())
	if _, _, err := MuxMP4(s[1:], 32, 32, time.Now(), time.Now()); err == nil {
		t.Error("a clip starting at a P picture was muxed")
	}
}

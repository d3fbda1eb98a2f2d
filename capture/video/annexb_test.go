package video

import (
	"bytes"
	"image"
	"image/color"
	"math/rand"
	"testing"
	"time"

	"fixthis/internal/h264"
)

// encodedFrames returns n access units from the project's encoder, each a picture
// that differs from the one before.
func encodedFrames(t *testing.T, n int) [][]byte {
	t.Helper()
	enc, err := h264.NewEncoder(96, 64)
	if err != nil {
		t.Fatal(err)
	}
	var aus [][]byte
	img := image.NewRGBA(image.Rect(0, 0, 96, 64))
	for i := 0; i < n; i++ {
		img.SetRGBA(i*13%96, i*7%64, color.RGBA{uint8(40 * i), 200, 30, 255})
		au, _, err := enc.Encode(img, i == 3)
		if err != nil || au == nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		aus = append(aus, au)
	}
	return aus
}

func TestSplitterCutsAccessUnitsAcrossChunks(t *testing.T) {
	aus := encodedFrames(t, 6)
	stream := bytes.Join(aus, nil)
	rng := rand.New(rand.NewSource(1))
	for round := 0; round < 20; round++ {
		var s splitter
		var got []AccessUnit
		for off := 0; off < len(stream); {
			n := min(1+rng.Intn(700), len(stream)-off)
			got = append(got, s.Write(stream[off:off+n], time.Now())...)
			off += n
		}
		if len(got) != len(aus)-1 {
			t.Fatalf("before the flush: %d units, want %d (only the last one waits)", len(got), len(aus)-1)
		}
		got = append(got, s.Flush(time.Now())...)
		if len(got) != len(aus) {
			t.Fatalf("after the flush: %d units, want %d", len(got), len(aus))
		}
		for i := range aus {
			if !bytes.Equal(got[i].Data, aus[i]) {
				t.Fatalf("round %d unit %d differs (%d vs %d bytes)", round, i, len(got[i].Data), len(aus[i]))
			}
			if wantKey := i == 0 || i == 3; got[i].Key != wantKey {
				t.Errorf("unit %d: key=%v", i, got[i].Key)
			}
		}
		if s.Corrupt != 0 || s.Broken {
			t.Errorf("clean stream: corrupt=%d broken=%v", s.Corrupt, s.Broken)
		}
	}
}

func TestSplitterSkipsTextBeforeTheStream(t *testing.T) {
	aus := encodedFrames(t, 2)
	var s splitter
	got := s.Write(append([]byte("WARNING: something\n"), bytes.Join(aus, nil)...), time.Now())
	got = append(got, s.Flush(time.Now())...)
	if len(got) != 2 || !bytes.Equal(got[0].Data, aus[0]) || s.Corrupt != len("WARNING: something\n") {
		t.Errorf("got %d units, corrupt %d", len(got), s.Corrupt)
	}
}

func TestSplitterNoticesAFlushThatCutAPicture(t *testing.T) {
	aus := encodedFrames(t, 3)
	var s splitter
	s.Write(aus[0], time.Now())
	half := len(aus[1]) / 2
	got := s.Write(aus[1][:half], time.Now())
	got = append(got, s.Flush(time.Now())...)
	if len(got) != 2 {
		t.Fatalf("got %d units", len(got))
	}
	got = s.Write(append(aus[1][half:], aus[2]...), time.Now())
	got = append(got, s.Flush(time.Now())...)
	if !s.Broken {
		t.Error("the rest of a cut picture went unnoticed")
	}
	if len(got) != 1 || !bytes.Equal(got[0].Data, aus[2]) {
		t.Errorf("after the cut: %d units", len(got))
	}
}

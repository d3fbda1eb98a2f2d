package device

import (
	"context"
	"image"
	"testing"
	"time"

	"fixthis/capture"
	"fixthis/sim"
)

// waitStillFrame waits until a freeze on serial could take the preview's frame.
func waitStillFrame(t *testing.T, s *Service, serial string) stillFrame {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if f, ok := s.Preview.stillFrames.usable(serial, s.Preview.changes.Load(), time.Now()); ok {
			return f
		}
		if time.Now().After(deadline) {
			t.Fatal("the preview's frame never became usable for a freeze on a still screen")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// On a still screen of an app with the sidekick, a freeze takes the preview's frame
// and reads only the tree; the picture is still exactly the phone's screen.
func TestFreezeOnAStillSidekickScreenUsesThePreviewFrame(t *testing.T) {
	s, dev, client := serviceOn(t, sim.Options{Scenario: "demo"})
	waitStillFrame(t, s, dev.Serial())
	fr, err := s.Freeze(context.Background(), dev.Serial())
	if err != nil {
		t.Fatal(err)
	}
	s.Resume()
	snap := fr.Snapshot
	if snap.TreeSource != capture.TreeFromSidekick || snap.Timings.Frame != 0 {
		t.Fatalf("tree from %q, frame took %v: want the sidekick's tree and the preview's frame", snap.TreeSource, snap.Timings.Frame)
	}
	now := screenNow(t, client.Device(dev.Serial()))
	if capture.PixelsCRC(snap.Frame) != capture.PixelsCRC(now) {
		t.Fatal("the frozen picture is not the phone's screen")
	}
	png, err := fr.PNG()
	if err != nil {
		t.Fatal(err)
	}
	if img, err := capture.DecodePNG(png); err != nil || capture.PixelsCRC(img) != capture.PixelsCRC(now) {
		t.Fatalf("the freeze's PNG is not its frame (%v)", err)
	}
}

// A screen changed just before the freeze, before the preview could see it, is frozen
// as it is after the change: the tree read at freeze time differs from the one under
// the preview's frame, so the freeze takes a new frame.
func TestFreezeRightAfterAChangeShowsTheChange(t *testing.T) {
	for _, tc := range []struct {
		name, input string
	}{
		{"navigation", "input tap 540 700"},            // opens the first trail
		{"scroll", "input swipe 540 1600 540 900 100"}, // moves the list
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, dev, client := serviceOn(t, sim.Options{Scenario: "demo"})
			d := client.Device(dev.Serial())
			before := waitStillFrame(t, s, dev.Serial())
			if res, err := d.Shell(context.Background(), tc.input); err != nil || res.ExitCode != 0 {
				t.Fatalf("%s: %v (%+v)", tc.input, err, res)
			}
			fr, err := s.Freeze(context.Background(), dev.Serial())
			if err != nil {
				t.Fatal(err)
			}
			s.Resume()
			got := capture.PixelsCRC(fr.Snapshot.Frame)
			if got == before.sum {
				t.Fatal("the freeze shows the screen from before the change")
			}
			if now := capture.PixelsCRC(screenNow(t, d)); got != now {
				t.Fatal("the frozen picture is not the phone's screen after the change")
			}
			if fr.Snapshot.Timings.Frame == 0 {
				t.Error("the freeze did not take a new frame after the change")
			}
		})
	}
}

// The evidence rules of usable, one at a time.
func TestStillFrameNeedsEvidence(t *testing.T) {
	t0 := time.Now()
	img := image.NewNRGBA(image.Rect(0, 0, 2, 2))
	armed := func() *stillFrames {
		var s stillFrames
		s.note("A", img, 7, t0, 3)
		s.last.firstSeen = t0.Add(10 * time.Millisecond)
		s.setDigest("A", 7, "d", t0.Add(20*time.Millisecond), t0.Add(60*time.Millisecond))
		s.note("A", img, 7, t0.Add(100*time.Millisecond), 3)
		return &s
	}
	at := t0.Add(200 * time.Millisecond)
	for _, tc := range []struct {
		name   string
		change func(s *stillFrames)
		serial string
		count  uint64
		now    time.Time
		want   bool
	}{
		{"tree read between two sightings", nil, "A", 3, at, true},
		{"another phone", nil, "B", 3, at, false},
		{"a change counted since", nil, "A", 4, at, false},
		{"last seen too long ago", nil, "A", 3, t0.Add(100*time.Millisecond + stillFrameMaxAge + time.Millisecond), false},
		{"no tree read", func(s *stillFrames) { s.last.digest = "" }, "A", 3, at, false},
		{"tree read before the pixels were first seen", func(s *stillFrames) { s.last.digestStart = t0 }, "A", 3, at, false},
		{"no sighting after the tree read", func(s *stillFrames) { s.last.digestEnd = t0.Add(150 * time.Millisecond) }, "A", 3, at, false},
		{"other pixels since", func(s *stillFrames) { s.note("A", img, 8, t0.Add(150*time.Millisecond), 3) }, "A", 3, at, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := armed()
			if tc.change != nil {
				tc.change(s)
			}
			if _, ok := s.usable(tc.serial, tc.count, tc.now); ok != tc.want {
				t.Errorf("usable = %v, want %v", ok, tc.want)
			}
		})
	}
}

func screenNow(t *testing.T, d capture.Device) *image.NRGBA {
	t.Helper()
	img, err := capture.CaptureFrame(context.Background(), d, "")
	if err != nil {
		t.Fatal(err)
	}
	return img
}

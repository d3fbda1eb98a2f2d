package device

import (
	"context"
	"fmt"
	"image"
	"testing"
	"time"

	"fixthis/adb"
	"fixthis/capture"
	"fixthis/internal/eventually"
	"fixthis/sim"
)

// previewModes are the live preview's two transports a freeze takes its still frame
// from: raw frames (--preview jpeg) and H.264 video with a console watching it (the
// default on a phone that streams), whose stills are taken beside the stream.
var previewModes = []struct {
	name  string
	start func(t testing.TB, opts sim.Options) (*Service, *sim.Device, *adb.Client)
}{
	{"raw", serviceOn},
	{"h264", serviceWatchingVideo},
}

// serviceWatchingVideo is serviceOn with the preview in its default mode and a
// console watching the phone's H.264 video, so the raw-frame loop takes no frames.
func serviceWatchingVideo(t testing.TB, opts sim.Options) (*Service, *sim.Device, *adb.Client) {
	t.Helper()
	s, dev, client := serviceIn(t, opts, VideoAuto)
	attach := func() error {
		view, err := s.Registry.Selected()
		if err != nil {
			return err
		}
		_, _, release, err := s.Video.Attach(view)
		if err == nil {
			t.Cleanup(release)
		}
		return err
	}
	eventually.Get(t, 15*time.Second, "the video to start", attach,
		func(err error) bool { return err == nil }, func(err error) string { return fmt.Sprint(err) })
	return s, dev, client
}

// waitStillFrame waits until a freeze on serial could take a kept still frame.
func waitStillFrame(t testing.TB, s *Service, serial string) stillFrame {
	t.Helper()
	var f stillFrame
	eventually.True(t, 20*time.Second, "a still frame usable for a freeze on a still screen", func() bool {
		src := s.stillSources(serial)
		var ok bool
		if len(src) > 0 {
			f, ok = src[0].usable(serial, time.Now())
		}
		return ok
	})
	return f
}

// On a still screen of an app with the sidekick, a freeze takes the kept still frame
// and reads only the tree; the picture is still exactly the phone's screen.
func TestFreezeOnAStillSidekickScreenUsesAKeptFrame(t *testing.T) {
	for _, mode := range previewModes {
		t.Run(mode.name, func(t *testing.T) {
			s, dev, client := mode.start(t, sim.Options{Scenario: "demo"})
			if mode.name == "h264" && s.Video.Watched(dev.Serial()) && len(s.stillSources(dev.Serial())) != 1 {
				t.Fatal("with the video watched, the raw-frame preview is still offered as a source")
			}
			waitStillFrame(t, s, dev.Serial())
			fr, err := s.Freeze(context.Background(), dev.Serial())
			if err != nil {
				t.Fatal(err)
			}
			s.Resume()
			snap := fr.Snapshot
			if snap.TreeSource != capture.TreeFromSidekick || snap.Timings.Frame != 0 {
				t.Fatalf("tree from %q, frame took %v: want the sidekick's tree and a kept frame", snap.TreeSource, snap.Timings.Frame)
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
		})
	}
}

// A screen changed just before the freeze, before the preview could see it, is frozen
// as it is after the change: the tree read at freeze time differs from the one under
// the kept frame (and, under video, a picture of the change arrives), so the freeze
// takes a new frame.
func TestFreezeRightAfterAChangeShowsTheChange(t *testing.T) {
	for _, mode := range previewModes {
		for _, tc := range []struct {
			name, input string
		}{
			{"navigation", "input tap 540 700"},            // opens the first trail
			{"scroll", "input swipe 540 1600 540 900 100"}, // moves the list
		} {
			t.Run(mode.name+"/"+tc.name, func(t *testing.T) {
				s, dev, client := mode.start(t, sim.Options{Scenario: "demo"})
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

// The video's evidence: a stream that still runs and counted no picture since the
// still was requested sees the still's pixels now; anything else does not.
func TestVideoStillNeedsAQuietRunningStream(t *testing.T) {
	t0 := time.Now().Add(-time.Minute)
	img := image.NewNRGBA(image.Rect(0, 0, 2, 2))
	for _, tc := range []struct {
		name       string
		pictures   uint64 // counted by the stream now; the still was requested at 5
		running    bool
		treeAfter  time.Duration // the tree read began this long after the still was requested
		wantUsable bool
	}{
		{"quiet running stream, tree read under the still", 5, true, 300 * time.Millisecond, true},
		{"a picture since the still was requested", 6, true, 300 * time.Millisecond, false},
		{"the stream stopped", 5, false, 300 * time.Millisecond, false},
		{"tree read before the still arrived", 5, true, -time.Millisecond, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var frames stillFrames
			frames.note("A", img, 7, t0, 5)
			frames.last.firstSeen = t0.Add(200 * time.Millisecond) // the still arrived
			start := t0.Add(200*time.Millisecond + tc.treeAfter)
			frames.setDigest("A", 7, "d", start, start.Add(50*time.Millisecond))
			src := stillSource{frames: &frames, count: func() uint64 { return tc.pictures },
				streaming: func() bool { return tc.running }}
			// A minute after the still: a running quiet stream vouches for it however long ago it was taken.
			f, ok := src.usable("A", time.Now())
			if ok != tc.wantUsable {
				t.Fatalf("usable = %v, want %v", ok, tc.wantUsable)
			}
			if ok && !src.unchanged(f) {
				t.Error("unchanged = false on a quiet running stream")
			}
		})
	}
}

// A console whose event stream is down polls for raw frames and cannot play the
// video: while another console watches the phone's video, the poller still gets
// frames (a second tab once waited forever for its first picture).
func TestPollingConsoleGetsFramesBesideTheVideo(t *testing.T) {
	s, _, _ := serviceWatchingVideo(t, sim.Options{Scenario: "demo"})
	eventually.True(t, 15*time.Second, "a raw frame for the polling console", func() bool {
		s.Preview.NotePoll() // as the console's fallback poll does every 1.5 s
		return s.Preview.Latest().PreviewAvailable
	})
}

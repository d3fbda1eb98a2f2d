package video_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"fixthis/adb"
	"fixthis/adb/adbtest"
	"fixthis/capture/video"
	"fixthis/internal/h264/h264test"
	"fixthis/sim"
)

type env struct {
	client *adb.Client
	dev    *sim.Device
}

func newEnv(t *testing.T, link string) env {
	t.Helper()
	p := adbtest.StartPhone(t, sim.Options{Scenario: "demo", LatencyScale: 0, Link: sim.Links[link], Logf: adbtest.Quiet})
	return env{p.Client, p.Device}
}

// scroll moves the demo's list once per interval until stop closes.
func scroll(dev *sim.Device, every time.Duration, stop <-chan struct{}) {
	se := dev.Session()
	for i := 0; ; i++ {
		dy := 200
		if i/6%2 == 1 {
			dy = -200 // back up again, so the list never runs out
		}
		se.Swipe(540, 1500, 540, 1500-dy, 300*time.Millisecond)
		select {
		case <-stop:
			return
		case <-time.After(every):
		}
	}
}

func TestStreamRelaysScrollingAndRestartsBeforeTheLimit(t *testing.T) {
	h264test.FFmpeg(t)
	e := newEnv(t, "none")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w, h := video.Fit(1080, 2400, 900)
	s, err := video.Open(ctx, e.client.Device(e.dev.Serial()), video.Options{
		Width: w, Height: h, TimeLimit: 2 * time.Second, RestartLead: 500 * time.Millisecond,
		Quiet: 500 * time.Millisecond, // every picture must decode, even on a loaded machine
	})
	if err != nil {
		t.Fatal(err)
	}
	replay, live, unsub := s.Subscribe()
	defer unsub()
	if len(replay) != 1 || !replay[0].Key {
		t.Fatalf("replay at start: %d units", len(replay))
	}
	stop := make(chan struct{})
	go scroll(e.dev, 100*time.Millisecond, stop)
	var stream []byte
	for _, au := range replay {
		stream = append(stream, au.Data...)
	}
	n, keys := 0, 0
	var lastArrival time.Time
	var maxGap time.Duration
	// Until 30 pictures and two restarts (the limit is 2 s), not for a fixed time: a
	// loaded machine encodes fewer pictures a second, and the test is about relaying
	// them across restarts, not about the rate.
	deadline := time.After(60 * time.Second)
collect:
	for n < 30 || s.Stats().Restarts < 2 || keys < 2 {
		select {
		case au, ok := <-live:
			if !ok {
				t.Fatalf("stream ended: %v", s.Err())
			}
			now := time.Now()
			if !lastArrival.IsZero() && now.Sub(lastArrival) > maxGap {
				maxGap = now.Sub(lastArrival)
			}
			lastArrival = now
			if au.Arrived.After(now) || now.Sub(au.Arrived) > 3*time.Second {
				t.Errorf("picture stamped %s before it was received", now.Sub(au.Arrived))
			}
			if au.Key {
				keys++
				if !bytes.Contains(au.Data[:64], []byte{0, 0, 0, 1, 0x67}) {
					t.Error("a key frame without its SPS")
				}
			}
			n++
			stream = append(stream, au.Data...)
		case <-deadline:
			break collect
		}
	}
	close(stop)
	st := s.Stats()
	t.Logf("%d pictures, %d key frames, %d restarts, %.1f MB, longest gap %s", n, keys, st.Restarts, float64(st.Bytes)/1e6, maxGap)
	if st.Restarts < 2 || keys < 2 || n < 30 {
		t.Errorf("after 60 s with a 2 s limit: %d pictures, %d restarts, %d key frames", n, st.Restarts, keys)
	}
	// Pictures end on the next start code or after the 500 ms quiet spell set above.
	if maxGap > 900*time.Millisecond {
		t.Errorf("the picture stream paused for %s across a restart", maxGap)
	}
	frames := h264test.Decode(t, stream, w, h)
	if len(frames) != n+len(replay) {
		t.Errorf("ffmpeg decoded %d pictures of %d", len(frames), n+len(replay))
	}

	// A viewer joining now gets a key frame first.
	replay2, _, unsub2 := s.Subscribe()
	unsub2()
	if len(replay2) == 0 || !replay2[0].Key {
		t.Errorf("late joiner's replay: %d units", len(replay2))
	}
	cancel()
	select {
	case <-s.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("stream did not stop after cancel")
	}
}

func TestStreamReportsWhyTheDeviceCannotStream(t *testing.T) {
	e := newEnv(t, "none")
	_, err := video.Open(context.Background(), e.client.Device(e.dev.Serial()), video.Options{Width: 5000, Height: 5000})
	var ue *video.UnsupportedError
	if !errors.As(err, &ue) {
		t.Fatalf("Open = %v, want an UnsupportedError", err)
	}
	if !strings.Contains(ue.Reason, "unable to configure video/avc codec at 5000x5000") {
		t.Errorf("reason %q", ue.Reason)
	}
}

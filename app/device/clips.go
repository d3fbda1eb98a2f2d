package device

import (
	"bytes"
	"context"
	"fmt"
	"image/jpeg"
	"sync/atomic"
	"time"

	"github.com/disintegration/imaging"

	"fixthis/app/errcode"
	"fixthis/capture"
	"fixthis/capture/clip"
	"fixthis/capture/video"
)

// Bounds of what the live screen keeps for clips (memory, measured in
// docs/benchmarks.md): the video's pictures, the raw-frame preview's JPEGs, and the
// small stills taken beside the video for a clip's frame strip.
const (
	clipVideoBytes = 96 << 20
	clipRawBytes   = 32 << 20
	clipStillBytes = 16 << 20
	// Go decodes no H.264 without cgo, so while the video runs a still is captured
	// beside it at most this often, and only after the screen changed: a strip needs
	// 6–8 pictures of the span.
	stillEvery = 500 * time.Millisecond
	// stillShare bounds the stills' part of the link: after a still that took d, the
	// next waits stillShare×d (sampleStills).
	stillShare  = 5
	stillHeight = 480
	// holdLimit ends a recording whose end never came.
	holdLimit = clip.MaxSeconds*time.Second + 5*time.Second
)

// clipSource is what one H.264 stream keeps for clips.
type clipSource struct {
	serial        string
	width, height int
	pictures      *clip.History[clip.Sample]
	stills        *clip.History[clip.Frame]
	endedAt       time.Time // when its stream stopped (zero while it runs)
	// changes counts the stream's pictures, live and replayed: a still is taken only
	// after one, and a freeze may use the newest still while none came since.
	changes atomic.Uint64
	// kept is the newest still at full resolution, for a freeze (still_frame.go):
	// ~10 MB on a 1080×2400 phone, one per stream, dropped when the stream stops.
	kept stillFrames
	// done is closed when the stream ends; stopped is set when it is being stopped.
	done    <-chan struct{}
	stopped atomic.Bool
}

// streaming reports whether the stream still runs, so that its count of pictures
// still sees every change of the screen. A phone's screenrecord sends a picture only
// when the screen changed, nothing on a still screen: it encodes the virtual display
// SurfaceFlinger composes into, which it does only for a new frame, and asks the
// encoder to repeat nothing (AOSP frameworks/av cmds/screenrecord/screenrecord.cpp,
// e.g. LineageOS/android_frameworks_av at 12efcb14: prepareEncoder sets bit rate,
// frame rate and i-frame-interval 10 and no "repeat-previous-frame-after"; runEncoder
// waits 250 ms in dequeueOutputBuffer and on -EAGAIN loops without writing). The
// simulated phone's recorder does the same (sim/android/screenrecord.go,
// recorder.display: it encodes only when the phone's picture version moved), so a
// quiet stream is a still screen; every picture counts as a change, the key frame of
// a restarted screenrecord run included.
func (c *clipSource) streaming() bool {
	if c.stopped.Load() || c.done == nil {
		return false
	}
	select {
	case <-c.done:
		return false
	default:
		return true
	}
}

// endedClipsFor is how long what a stopped stream kept can still be cut.
const endedClipsFor = 10 * time.Minute

func newClipSource(serial string, w, h int) *clipSource {
	return &clipSource{serial: serial, width: w, height: h,
		pictures: clip.NewHistory[clip.Sample](clip.Window, clipVideoBytes),
		stills:   clip.NewHistory[clip.Frame](clip.Window, clipStillBytes)}
}

func (c *clipSource) add(au video.AccessUnit) {
	if au.AfterBreak {
		// The picture before was cut short: a clip must not carry it or what
		// refers to it; the stream restarts for a key frame.
		c.pictures.Break()
	}
	c.pictures.Add(clip.Entry[clip.Sample]{At: au.Arrived, Key: au.Key, Bytes: len(au.Data),
		Value: clip.Sample{Data: au.Data, Key: au.Key, At: au.Arrived}})
}

func newRawHistory() *clip.History[*previewFrame] {
	return clip.NewHistory[*previewFrame](clip.Window, clipRawBytes)
}

// keepRaw adds a published raw frame to the clip history.
func (p *Preview) keepRaw(f *previewFrame) {
	p.raw.Add(clip.Entry[*previewFrame]{At: f.CapturedAt, Key: true, Bytes: len(f.JPEG), Value: f})
}

// sampleStills captures a small still beside the video whenever the screen changed
// since the last one, until the stream ends. A still is a whole raw frame (~10 MB
// on a 1080×2400 phone) on the same link as the video, so it waits at least
// stillEvery and at least stillShare times what the last one took: over USB 2 that
// is one every 1.5 s or so, over Wi-Fi adb (~5 MB/s) one every 10 s, and the
// video keeps five sixths of the link either way.
func (v *Video) sampleStills(ctx context.Context, s *video.Stream, src *clipSource) {
	wait := stillEvery
	seen := ^uint64(0)
	for {
		if n := src.changes.Load(); n != seen {
			seen = n
			at := time.Now()
			cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			img, err := capture.CaptureFrame(cctx, v.client.Device(src.serial), "")
			cancel()
			wait = stillWait(time.Since(at))
			if err == nil {
				// Kept for a freeze with the count read before it was requested: a
				// picture after that may be of a change the still missed.
				src.kept.note(src.serial, img, capture.PixelsCRC(img), at, n)
				small := imaging.Resize(img, 0, stillHeight, imaging.Box)
				src.stills.Add(clip.Entry[clip.Frame]{At: at, Key: true, Bytes: len(small.Pix), Value: clip.Frame{Image: small, At: at}})
			}
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-s.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// stillWait is the pause after a still that took took: stillEvery, or longer when
// the link is slow, so stills hold it at most one part in stillShare+1.
func stillWait(took time.Duration) time.Duration {
	return max(stillEvery, took*stillShare)
}

// clipSourceFor is what serial's video keeps and when it ends: now while the
// stream runs; with ended, when it stopped for the last stream (within endedClipsFor).
func (v *Video) clipSourceFor(serial string, ended bool) (*clipSource, time.Time) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if st := v.stages[serial]; st != nil {
		select {
		case <-st.stream.Done():
		default:
			return st.clips, time.Now()
		}
	}
	if e := v.ended[serial]; ended && e != nil && time.Since(e.endedAt) < endedClipsFor {
		return e, e.endedAt
	}
	return nil, time.Time{}
}

// Cut is a clip of serial's screen from d ago to now, with where it came from:
// "h264" (the live video) or "jpeg" (the raw-frame preview). While the preview is
// frozen (the console closed its video to annotate) the clip ends at the freeze.
func (s *Service) Cut(serial string, d time.Duration) (*clip.Clip, string, error) {
	frozenAt, frozen := s.Preview.frozenSince()
	if src, to := s.Video.clipSourceFor(serial, frozen); src != nil {
		if frozen && frozenAt.Before(to) {
			to = frozenAt
		}
		settle(src.pictures, to)
		if samples := upTo(src.pictures, to.Add(-d), to); len(samples) > 0 {
			from := latest(to.Add(-d), samples[0].At)
			stills := upTo(src.stills, from, to)
			c, err := clip.CutVideo(samples, src.width, src.height, from, to, stills)
			if err != nil {
				return nil, "", errcode.Wrap(errcode.CaptureFailed, err, "cut a clip of %s: %v", serial, err)
			}
			return c, "h264", nil
		}
	}
	to := time.Now()
	if frozen {
		to = frozenAt
	} else if !s.Preview.shouldCapture() {
		// The raw-frame loop is not running: what it kept is an old screen.
		return nil, "", errcode.New(errcode.ClipUnavailable,
			"no live screen of %s is kept to cut a clip from: the live preview is not running (open the console, or use fixthis_record_screen)", serial)
	}
	var frames []clip.Frame
	for _, f := range upTo(s.Preview.raw, to.Add(-d), to) {
		if f.Serial != serial {
			continue
		}
		img, err := jpeg.Decode(bytes.NewReader(f.JPEG))
		if err != nil {
			return nil, "", fmt.Errorf("decode kept frame %s: %w", f.ID, err)
		}
		frames = append(frames, clip.Frame{Image: img, At: f.CapturedAt})
	}
	if len(frames) == 0 {
		return nil, "", errcode.New(errcode.ClipUnavailable,
			"no live screen of %s is kept to cut a clip from: the live preview must be running (a console watching the phone, or fixthis_record_screen)", serial)
	}
	c, err := clip.CutFrames(frames, latest(to.Add(-d), frames[0].At), to)
	if err != nil {
		return nil, "", errcode.Wrap(errcode.CaptureFailed, err, "cut a clip of %s: %v", serial, err)
	}
	return c, "jpeg", nil
}

// settleWait is how long a picture can still turn out to be cut short: the splitter
// ends a picture after a quiet spell, and when its rest arrives after all (a loaded
// link) the picture is dropped from the history (History.Break). A cut waits that
// long for the newest picture, unless the next one comes first.
const settleWait = 500 * time.Millisecond

// settle waits until the newest picture at or before to is known to be whole: a later
// picture arrived, or settleWait passed since it did.
func settle(h *clip.History[clip.Sample], to time.Time) {
	deadline := time.Now().Add(settleWait)
	for time.Now().Before(deadline) {
		newest, ok := h.Newest()
		if !ok || newest.At.After(to) || time.Since(newest.At) >= settleWait {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// upTo is what h keeps for a clip from from to to: from the key picture at or
// before from, none after to.
func upTo[T any](h *clip.History[T], from, to time.Time) []T {
	kept, _ := h.Since(from)
	out := make([]T, 0, len(kept))
	for _, e := range kept {
		if e.At.After(to) {
			break
		}
		out = append(out, e.Value)
	}
	return out
}

// latest is the later of a clip's asked start and its first picture: a history
// shorter than asked gives a shorter clip, never one that starts on nothing.
func latest(from, first time.Time) time.Time {
	if first.After(from) {
		return first
	}
	return from
}

// Hold keeps every picture of serial's live screen from now on until release,
// so a recording can run longer than the 10 s the histories keep.
func (s *Service) Hold(serial string) (release func()) {
	now := time.Now()
	rels := []func(){s.Preview.raw.Hold(now, holdLimit)}
	if src, _ := s.Video.clipSourceFor(serial, false); src != nil {
		rels = append(rels, src.pictures.Hold(now, holdLimit), src.stills.Hold(now, holdLimit))
	}
	return func() {
		for _, r := range rels {
			r()
		}
	}
}

// Record watches serial's screen for d from now, through the video when the
// device streams it and raw frames otherwise, and cuts it: what an agent records
// while it reproduces a bug or checks a fix.
func (s *Service) Record(ctx context.Context, dev View, d time.Duration) (*clip.Clip, string, error) {
	unwatch := s.Preview.Watch()
	defer unwatch()
	if _, _, release, err := s.Video.Attach(dev); err == nil {
		defer release()
	}
	s.Preview.Poke()
	release := s.Hold(dev.Serial)
	defer release()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return nil, "", ctx.Err()
	case <-t.C:
	}
	return s.Cut(dev.Serial, d)
}

// Viewers is how many consoles watch any phone's video now.
func (v *Video) Viewers() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	n := 0
	for _, st := range v.stages {
		n += st.viewers
	}
	return n
}

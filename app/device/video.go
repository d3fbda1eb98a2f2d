package device

import (
	"context"
	"errors"
	"fmt"
	"image"
	"sync"
	"time"

	"fixthis/adb"
	"fixthis/app/errcode"
	"fixthis/capture/video"
)

// VideoMode chooses the live preview's transport (`--preview`).
type VideoMode string

// The preview transports.
const (
	VideoAuto VideoMode = "auto" // H.264 when the device can stream it, raw frames otherwise
	VideoH264 VideoMode = "h264" // H.264 only: a device that cannot stream shows why
	VideoJPEG VideoMode = "jpeg" // raw frames encoded as JPEG, never video
)

// ParseVideoMode reads a --preview value.
func ParseVideoMode(s string) (VideoMode, error) {
	switch m := VideoMode(s); m {
	case VideoAuto, VideoH264, VideoJPEG:
		return m, nil
	case "":
		return VideoAuto, nil
	}
	return "", fmt.Errorf("--preview %q: want auto, h264 or jpeg", s)
}

// videoLinger keeps a stream running briefly after its last viewer left, so a console
// that reloads does not pay for a new screenrecord start.
const videoLinger = 3 * time.Second

// Video runs one H.264 stream for the selected device while consoles watch it.
// While it has viewers the raw-frame loop only checks the screen state.
type Video struct {
	mode    VideoMode
	client  *adb.Client
	preview *Preview
	opts    video.Options // test hooks: time limit and restart lead

	mu      sync.Mutex
	ctx     context.Context
	stream  *video.Stream
	cancel  context.CancelFunc
	serial  string
	config  VideoConfig
	viewers int
	clips   *clipSource // what the running stream keeps for clips
	// ended is what the last stream kept, for a clip cut after it stopped (the
	// console closes the stream when it freezes the screen to annotate).
	ended       *clipSource
	linger      *time.Timer
	unsupported map[string]string // serial → why it cannot stream
}

// VideoConfig describes a stream to the console: the coded size, the device's display
// and where the display lies inside the picture (screenrecord letterboxes it).
type VideoConfig struct {
	Serial        string `json:"serial"`
	Width         int    `json:"width"`  // coded video size
	Height        int    `json:"height"` //
	DisplayWidth  int    `json:"displayWidth"`
	DisplayHeight int    `json:"displayHeight"`
	ContentX      int    `json:"contentX"`
	ContentY      int    `json:"contentY"`
	ContentWidth  int    `json:"contentWidth"`
	ContentHeight int    `json:"contentHeight"`
}

func newVideo(mode VideoMode, client *adb.Client, p *Preview, opts video.Options) *Video {
	return &Video{mode: mode, client: client, preview: p, opts: opts, unsupported: map[string]string{}}
}

// Mode is the configured transport.
func (v *Video) Mode() VideoMode { return v.mode }

func (v *Video) run(ctx context.Context) {
	v.mu.Lock()
	v.ctx = ctx
	v.mu.Unlock()
	<-ctx.Done()
	v.mu.Lock()
	v.stopLocked()
	v.mu.Unlock()
}

// Unavailable says why serial cannot stream video ("" when it can or was not tried).
func (v *Video) Unavailable(serial string) string {
	if v.mode == VideoJPEG {
		return "the preview is set to JPEG (--preview jpeg)"
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.unsupported[serial]
}

// Attach returns the running stream for dev, starting it at a size that fits the
// console's stage. Call release when the viewer leaves.
func (v *Video) Attach(dev View) (*video.Stream, VideoConfig, func(), error) {
	if v.mode == VideoJPEG {
		return nil, VideoConfig{}, nil, errcode.New(errcode.VideoUnavailable, "the preview is set to JPEG (--preview jpeg)")
	}
	if dev.Screen == nil || dev.Screen.Width <= 0 {
		return nil, VideoConfig{}, nil, errcode.New(errcode.DeviceNotAvailable, "%s has not reported its screen size yet", dev.Serial)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.ctx == nil {
		return nil, VideoConfig{}, nil, errcode.New(errcode.DeviceNotAvailable, "the device service is not running")
	}
	if why := v.unsupported[dev.Serial]; why != "" {
		return nil, VideoConfig{}, nil, errcode.New(errcode.VideoUnavailable, "%s", why)
	}
	dw, dh, w, h := v.fit(dev)
	reuse := v.stream != nil && v.serial == dev.Serial && v.config.Width == w && v.config.Height == h
	if reuse {
		select {
		case <-v.stream.Done():
			reuse = false
		default:
		}
	}
	if !reuse {
		v.stopLocked()
		opts := v.opts
		opts.Width, opts.Height = w, h
		ctx, cancel := context.WithCancel(v.ctx)
		s, err := video.Open(ctx, v.client.Device(dev.Serial), opts)
		if err != nil {
			cancel()
			var ue *video.UnsupportedError
			if errors.As(err, &ue) {
				v.unsupported[dev.Serial] = ue.Reason
				return nil, VideoConfig{}, nil, errcode.New(errcode.VideoUnavailable, "%s", ue.Reason)
			}
			return nil, VideoConfig{}, nil, errcode.Wrap(errcode.CaptureFailed, err, "start live video on %s: %v", dev.Serial, err)
		}
		content := video.ContentRect(dw, dh, w, h)
		src := newClipSource(dev.Serial, w, h)
		go v.noteChanges(s, src)
		go v.sampleStills(ctx, s, src)
		v.stream, v.cancel, v.serial, v.clips = s, cancel, dev.Serial, src
		v.config = newVideoConfig(dev.Serial, w, h, dw, dh, content)
	}
	if v.linger != nil {
		v.linger.Stop()
		v.linger = nil
	}
	v.viewers++
	v.preview.videoViewers.Add(1)
	s, cfg := v.stream, v.config
	var once sync.Once
	return s, cfg, func() { once.Do(func() { v.release(s) }) }, nil
}

// fit is dev's display as it stands now and the video size for the console's stage.
func (v *Video) fit(dev View) (dw, dh, w, h int) {
	// `wm size` reports the display upright; a turned phone streams the other way round.
	dw, dh = dev.Screen.Width, dev.Screen.Height
	if v.preview.Landscape() == (dw < dh) {
		dw, dh = dh, dw
	}
	w, h = video.Fit(dw, dh, v.preview.StageHeight())
	return dw, dh, w, h
}

func newVideoConfig(serial string, w, h, dw, dh int, content image.Rectangle) VideoConfig {
	return VideoConfig{
		Serial: serial, Width: w, Height: h, DisplayWidth: dw, DisplayHeight: dh,
		ContentX: content.Min.X, ContentY: content.Min.Y, ContentWidth: content.Dx(), ContentHeight: content.Dy(),
	}
}

func (v *Video) release(s *video.Stream) {
	v.preview.videoViewers.Add(-1)
	v.preview.Poke() // the raw-frame loop may have to take over
	v.mu.Lock()
	defer v.mu.Unlock()
	v.viewers--
	if v.viewers > 0 || v.stream != s {
		return
	}
	v.linger = time.AfterFunc(videoLinger, func() {
		v.mu.Lock()
		defer v.mu.Unlock()
		if v.viewers == 0 && v.stream == s {
			v.stopLocked()
		}
	})
}

func (v *Video) stopLocked() {
	if v.cancel != nil {
		v.cancel()
	}
	if v.clips != nil {
		v.clips.endedAt = time.Now()
		v.ended = v.clips
	}
	v.stream, v.cancel, v.serial, v.clips = nil, nil, "", nil
}

// noteChanges tells the preview of every picture the stream carries (a phone sends
// one only when its screen changed, so a quiet stream is a still screen) and keeps
// them for clips. A subscription that fell behind starts again from a key frame.
func (v *Video) noteChanges(s *video.Stream, src *clipSource) {
	for {
		replay, live, cancel := s.Subscribe()
		src.pictures.Reset()
		for _, au := range replay {
			src.add(au)
		}
		for au := range live {
			v.preview.noteChange()
			src.add(au)
			if src.pictures.NeedKey() {
				s.RequestKey()
			}
		}
		cancel()
		select {
		case <-s.Done():
			return
		default:
		}
	}
}

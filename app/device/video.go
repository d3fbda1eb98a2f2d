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

// MaxStages is how many phones the console shows live at once: each is a screenrecord
// on its phone and a relay here, and more than four no longer fit side by side.
const MaxStages = 4

// videoLinkBudget is the bit rate all live streams ask of their phones' encoders
// together. Phones on Wi-Fi adb share one network (adb carries about 40 Mbit/s over
// it, the simulated Wi-Fi link's 5 MB/s), so the streams keep to 60 % of that and
// leave the rest to freezes and the stills beside the video. A stream starts with
// what keeps its text sharp (video.BitRate), at most its even share of this; a still
// screen costs nothing whatever the rate, since screenrecord sends a picture only when
// the screen changed. Over USB each phone has its own cable and the share does not bind.
const videoLinkBudget = 24_000_000

// Video runs one H.264 stream per phone the consoles watch (up to MaxStages). While
// the selected phone's stream has viewers the raw-frame loop only checks the screen
// state.
type Video struct {
	mode    VideoMode
	client  *adb.Client
	preview *Preview
	opts    video.Options // test hooks: time limit and restart lead

	mu     sync.Mutex
	ctx    context.Context
	stages map[string]*videoStage // serial → its running stream
	// ended is what each phone's last stream kept, for a clip cut after it stopped
	// (the console closes the stream when it freezes the screen to annotate).
	ended       map[string]*clipSource
	unsupported map[string]string // serial → why it cannot stream
}

// videoStage is one phone's running stream and who watches it.
type videoStage struct {
	stream  *video.Stream
	cancel  context.CancelFunc
	config  VideoConfig
	viewers int
	clips   *clipSource // what the stream keeps for clips
	linger  *time.Timer
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
	// BitRate is what the phone's encoder was asked for: its share of the link.
	BitRate int `json:"bitRate"`
}

func newVideo(mode VideoMode, client *adb.Client, p *Preview, opts video.Options) *Video {
	return &Video{mode: mode, client: client, preview: p, opts: opts,
		stages: map[string]*videoStage{}, ended: map[string]*clipSource{}, unsupported: map[string]string{}}
}

// Mode is the configured transport.
func (v *Video) Mode() VideoMode { return v.mode }

func (v *Video) run(ctx context.Context) {
	v.mu.Lock()
	v.ctx = ctx
	v.mu.Unlock()
	<-ctx.Done()
	v.mu.Lock()
	for serial := range v.stages {
		v.stopLocked(serial)
	}
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
// console's stage. Call release when the viewer leaves. A fifth phone is refused
// while four streams have viewers.
func (v *Video) Attach(dev View) (*video.Stream, VideoConfig, func(), error) {
	if v.mode == VideoJPEG {
		return nil, VideoConfig{}, nil, errcode.New(errcode.VideoUnavailable, "the preview is set to JPEG (--preview jpeg)")
	}
	if dev.Screen == nil || dev.Screen.Width <= 0 {
		return nil, VideoConfig{}, nil, errcode.New(errcode.DeviceNotAvailable, "%s has not reported its screen size yet", dev.Serial)
	}
	turned := v.preview.Landscape() && v.preview.selectedIs(dev.Serial)
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.ctx == nil {
		return nil, VideoConfig{}, nil, errcode.New(errcode.DeviceNotAvailable, "the device service is not running")
	}
	if why := v.unsupported[dev.Serial]; why != "" {
		return nil, VideoConfig{}, nil, errcode.New(errcode.VideoUnavailable, "%s", why)
	}
	dw, dh, w, h := v.fit(dev, turned)
	st := v.stages[dev.Serial]
	reuse := st != nil && st.config.Width == w && st.config.Height == h
	if reuse {
		select {
		case <-st.stream.Done():
			reuse = false
		default:
		}
	}
	if !reuse {
		if st == nil && !v.makeRoomLocked() {
			return nil, VideoConfig{}, nil, errcode.New(errcode.StageLimit,
				"%d phones are live already; close one of their stages to show %s", MaxStages, dev.Serial)
		}
		viewers := 0
		if st != nil {
			viewers = st.viewers // viewers of the old size keep counting until they leave
			v.stopLocked(dev.Serial)
		}
		fresh, err := v.startLocked(dev, w, h, dw, dh)
		if err != nil {
			return nil, VideoConfig{}, nil, err
		}
		fresh.viewers = viewers
		st = fresh
	}
	if st.linger != nil {
		st.linger.Stop()
		st.linger = nil
	}
	st.viewers++
	serial, s, cfg := dev.Serial, st.stream, st.config
	var once sync.Once
	return s, cfg, func() { once.Do(func() { v.release(serial, s) }) }, nil
}

// makeRoomLocked reports whether another phone may start a stream: fewer than
// MaxStages run, or one of them has no viewer left and is only lingering (it stops).
func (v *Video) makeRoomLocked() bool {
	if len(v.stages) < MaxStages {
		return true
	}
	for serial, st := range v.stages {
		if st.viewers == 0 {
			v.stopLocked(serial)
			return true
		}
	}
	return false
}

// startLocked opens dev's stream at w×h with its share of the link.
func (v *Video) startLocked(dev View, w, h, dw, dh int) (*videoStage, error) {
	opts := v.opts
	opts.Width, opts.Height = w, h
	opts.BitRate = shareOfLink(w, h, len(v.stages)+1)
	ctx, cancel := context.WithCancel(v.ctx)
	s, err := video.Open(ctx, v.client.Device(dev.Serial), opts)
	if err != nil {
		cancel()
		var ue *video.UnsupportedError
		if errors.As(err, &ue) {
			v.unsupported[dev.Serial] = ue.Reason
			return nil, errcode.New(errcode.VideoUnavailable, "%s", ue.Reason)
		}
		return nil, errcode.Wrap(errcode.CaptureFailed, err, "start live video on %s: %v", dev.Serial, err)
	}
	src := newClipSource(dev.Serial, w, h)
	src.done = s.Done()
	go v.noteChanges(dev.Serial, s, src)
	go v.sampleStills(ctx, s, src)
	st := &videoStage{stream: s, cancel: cancel, clips: src,
		config: newVideoConfig(dev.Serial, w, h, dw, dh, video.ContentRect(dw, dh, w, h), opts.BitRate)}
	v.stages[dev.Serial] = st
	return st, nil
}

// shareOfLink is the bit rate a w×h stream asks for when it is one of streams: what
// keeps its text sharp (video.BitRate), at most its even share of videoLinkBudget.
func shareOfLink(w, h, streams int) int {
	return min(video.BitRate(w, h), videoLinkBudget/max(1, streams))
}

// fit is dev's display as it stands now and the video size for the console's stage.
func (v *Video) fit(dev View, turned bool) (dw, dh, w, h int) {
	// `wm size` reports the display upright; a turned phone streams the other way round.
	dw, dh = dev.Screen.Width, dev.Screen.Height
	if turned == (dw < dh) {
		dw, dh = dh, dw
	}
	w, h = video.Fit(dw, dh, v.preview.StageHeight())
	return dw, dh, w, h
}

func newVideoConfig(serial string, w, h, dw, dh int, content image.Rectangle, bitRate int) VideoConfig {
	return VideoConfig{
		Serial: serial, Width: w, Height: h, DisplayWidth: dw, DisplayHeight: dh,
		ContentX: content.Min.X, ContentY: content.Min.Y, ContentWidth: content.Dx(), ContentHeight: content.Dy(),
		BitRate: bitRate,
	}
}

func (v *Video) release(serial string, s *video.Stream) {
	defer v.preview.Poke() // the raw-frame loop may have to take over
	v.mu.Lock()
	defer v.mu.Unlock()
	st := v.stages[serial]
	if st == nil || st.stream != s {
		return // a new size replaced it: the viewer was counted there (Attach)
	}
	st.viewers--
	if st.viewers > 0 {
		return
	}
	st.linger = time.AfterFunc(videoLinger, func() {
		v.mu.Lock()
		defer v.mu.Unlock()
		if now := v.stages[serial]; now == st && st.viewers == 0 {
			v.stopLocked(serial)
		}
	})
}

// stopLocked ends serial's stream and keeps what it recorded for clips.
func (v *Video) stopLocked(serial string) {
	st := v.stages[serial]
	if st == nil {
		return
	}
	delete(v.stages, serial)
	st.clips.stopped.Store(true)
	st.clips.kept.drop()
	st.cancel()
	if st.linger != nil {
		st.linger.Stop()
	}
	st.clips.endedAt = time.Now()
	v.ended[serial] = st.clips
	for other, e := range v.ended {
		if time.Since(e.endedAt) >= endedClipsFor {
			delete(v.ended, other)
		}
	}
}

// Watched reports whether a console shows serial's stream now.
func (v *Video) Watched(serial string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	st := v.stages[serial]
	return st != nil && st.viewers > 0
}

// noteChanges counts every picture the stream carries (a phone sends one only when
// its screen changed, so a quiet stream is a still screen) for the stills beside it,
// tells the preview when the phone is the selected one (the warm tree follows it),
// and keeps the pictures for clips. A subscription that fell behind starts again
// from a key frame.
func (v *Video) noteChanges(serial string, s *video.Stream, src *clipSource) {
	for {
		replay, live, cancel := s.Subscribe()
		// Pictures published before this subscription (or while a fallen-behind one
		// was dropped) are counted here: a still must not outlive one.
		src.changes.Add(uint64(len(replay)))
		src.pictures.Reset()
		for _, au := range replay {
			src.add(au)
		}
		for au := range live {
			src.changes.Add(1)
			if v.preview.selectedIs(serial) {
				v.preview.noteChange()
			}
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

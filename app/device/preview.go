package device

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"fixthis/adb"
	"fixthis/app/events"
	"fixthis/capture"
	"fixthis/capture/clip"
)

// previewFrame is one live frame kept for the browser to fetch by URL.
type previewFrame struct {
	ID         string
	Serial     string
	Width      int // device pixels
	Height     int
	JPEG       []byte
	Perceptual uint64
	pixelsCRC  uint32
	CapturedAt time.Time
}

// PreviewState is where the live preview stands.
type PreviewState string

// The preview states (docs/api.md, Preview.status).
const (
	StateLive     PreviewState = "live"
	StateFrozen   PreviewState = "frozen"
	StateBlocked  PreviewState = "blocked"
	StateNoDevice PreviewState = "no-device"
	StateStale    PreviewState = "stale"
)

// BlockReason says why the preview cannot show the app.
type BlockReason string

// The reasons a preview is blocked or stale.
const (
	ReasonScreenOff     BlockReason = "screen_off"
	ReasonKeyguard      BlockReason = "keyguard"
	ReasonDeviceGone    BlockReason = "device_gone"
	ReasonCaptureFailed BlockReason = "capture_failed"
)

// PreviewStatus is Preview.status in docs/api.md.
type PreviewStatus struct {
	State   PreviewState `json:"state"`
	Reason  BlockReason  `json:"reason,omitempty"`
	Message string       `json:"message,omitempty"`
	// VideoUnavailable says why the live preview shows raw frames instead of H.264
	// video (the device cannot stream it, or --preview jpeg).
	VideoUnavailable string `json:"videoUnavailable,omitempty"`
	// Secure: the app's window has FLAG_SECURE, so live frames are black (the UI
	// tree still reads). Set with the live state, from the last screen-state check.
	Secure bool `json:"secure,omitempty"`
}

// PreviewStatusEvent is the payload of preview-status.
type PreviewStatusEvent struct {
	Serial string        `json:"serial"`
	Status PreviewStatus `json:"status"`
}

// PreviewFrame is the payload of preview-ready: a new live frame to fetch by URL.
type PreviewFrame struct {
	PreviewID  string `json:"previewId"`
	Serial     string `json:"serial"`
	Width      int    `json:"width"`
	Height     int    `json:"height"`
	URL        string `json:"url"`
	CapturedAt string `json:"capturedAt"`
}

// PreviewDoc is the body of GET /api/preview and the snapshot's preview: the newest
// frame's fields when there is one, and the status always.
type PreviewDoc struct {
	PreviewAvailable bool          `json:"previewAvailable"`
	Status           PreviewStatus `json:"status"`
	// Paint is the newest report of what a console paints (POST /api/preview/stats).
	Paint *PaintReport `json:"paint,omitempty"`
	*PreviewFrame
}

// Preview mirrors the selected device. It is push-first: each new frame is
// announced with preview-ready and fetched by the browser by URL. It captures only while
// a console watches, the preview is not frozen and a device is selected; it skips frames
// whose pixels did not change and backs off while the screen is idle. It is strictly
// sequential, so frames never queue behind a slow device: the latest frame wins.
type Preview struct {
	reg       *Registry
	client    *adb.Client
	bus       *events.Bus
	log       *slog.Logger
	sidekicks *sidekicks // told the foreground package seen by state checks
	watchers  watchers

	seq      atomic.Uint64
	lastPoll atomic.Int64 // unix nanos of the last GET /api/preview
	// stageHeight is the console's stage height in device pixels; previews are encoded
	// no taller (0: the default).
	stageHeight atomic.Int64
	paints      paintReports
	// videoWatched says whether a console shows serial's H.264 stream: while one
	// does, the loop leaves that phone's pixels to the video and only checks its state.
	videoWatched func(serial string) bool
	rotation     atomic.Int32 // quarter turns, from the last screen-state check
	secure       atomic.Bool  // the last screen-state check saw FLAG_SECURE

	frames *Ring[*previewFrame]
	raw    *clip.History[*previewFrame] // the last seconds of frames, for clips
	// videoNote says why serial shows raw frames instead of video ("" when it does not).
	videoNote func(serial string) string
	videoOnly bool // --preview h264: never capture raw frames

	mu     sync.Mutex
	status PreviewStatus
	frozen bool
	// frozenAt is when the preview froze: a clip cut while frozen ends there.
	frozenAt time.Time
	// stopFetch cancels the raw frame the loop is fetching, so a freeze does not
	// share the cable with it (preview_freeze.go).
	stopFetch context.CancelFunc
	wake      chan struct{}
	lastCRC   uint32 // pixels of the last frame handed to the encoder

	// changes counts the screen changes the live preview saw (a changed raw frame, a
	// video picture) and changedAt is when it saw the last one: the warm tree dumps
	// only on a screen that has held still.
	changes   atomic.Uint64
	changedAt atomic.Int64
	// stillFrames keeps the newest raw frame, so a freeze on a still screen can use
	// it instead of fetching the same pixels again (still_frame.go).
	stillFrames stillFrames

	// encode is a one-slot mailbox between capturing and encoding: while frame N is
	// encoded, frame N+1 is already on its way from the device, and a frame that was
	// not picked up yet is replaced by a newer one (latest wins, nothing queues).
	encode chan pendingFrame
}

type pendingFrame struct {
	serial     string
	img        *image.NRGBA
	sum        uint32
	capturedAt time.Time
}

const keptPreviewFrames = 8

func newPreview(reg *Registry, client *adb.Client, bus *events.Bus, log *slog.Logger, sk *sidekicks) *Preview {
	return &Preview{
		reg: reg, client: client, bus: bus, log: log, sidekicks: sk,
		watchers: watchers{changed: make(chan struct{})},
		frames:   NewRing(keptPreviewFrames, func(f *previewFrame) string { return f.ID }),
		raw:      newRawHistory(),
		wake:     make(chan struct{}, 1),
		encode:   make(chan pendingFrame, 1),
		status:   PreviewStatus{State: StateNoDevice, Message: "Connect a device or use the demo device"},
	}
}

// noteChange records that the screen changed just now.
func (p *Preview) noteChange() {
	p.changedAt.Store(time.Now().UnixNano())
	p.changes.Add(1)
}

// stillSince is the change count and how long the screen has shown no change.
func (p *Preview) stillSince() (uint64, time.Duration) {
	return p.changes.Load(), time.Since(time.Unix(0, p.changedAt.Load()))
}

// Poke wakes the loop early (a tap, a resume, a device change).
func (p *Preview) Poke() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// Run is the loop. Intervals: as fast as the device answers while frames change,
// doubling up to 1 s while they do not, 2 s between screen-state checks.
func (p *Preview) Run(ctx context.Context) {
	go p.encodeLoop(ctx)
	const minIdle, maxIdle = 50 * time.Millisecond, time.Second
	idle := minIdle
	var lastStateCheck time.Time
	for ctx.Err() == nil {
		if !p.shouldCapture() {
			if p.isFrozen() {
				p.setStatus("", p.frozenStatus())
			}
			p.waitForWork(ctx)
			idle = minIdle
			continue
		}
		dev, err := p.reg.Selected()
		if err != nil {
			p.setStatus("", PreviewStatus{State: StateNoDevice, Message: err.Error()})
			p.waitForWork(ctx)
			continue
		}
		if time.Since(lastStateCheck) > 2*time.Second {
			lastStateCheck = time.Now()
			if blocked := p.checkBlocked(ctx, dev.Serial); blocked != nil {
				p.setStatus(dev.Serial, *blocked)
				p.sleep(ctx, maxIdle)
				continue
			}
		}
		if p.videoOnly && !p.videoWatched(dev.Serial) {
			// --preview h264: no raw frames; say why when the device refused video.
			if note := p.videoNote(dev.Serial); note != "" {
				p.setStatus(dev.Serial, PreviewStatus{State: StateStale, Reason: ReasonCaptureFailed, Message: "No live video (--preview h264): " + note})
			}
			p.sleep(ctx, maxIdle)
			continue
		}
		if p.videoWatched(dev.Serial) && !p.polled() {
			// The video shows the pixels; the state check above still tells the status
			// (a protected screen, a turned phone). A polling console cannot play video
			// (its event stream is down): raw frames are taken for it beside the stream.
			p.setStatus(dev.Serial, p.liveStatus())
			p.sleep(ctx, 2*time.Second)
			continue
		}
		changed, err := p.captureOnce(ctx, dev.Serial)
		switch {
		case err != nil:
			lastStateCheck = time.Time{} // find out why on the next round
			p.setStatus(dev.Serial, PreviewStatus{State: StateStale, Reason: ReasonCaptureFailed, Message: err.Error()})
			p.sleep(ctx, maxIdle)
		case changed:
			idle = minIdle
			p.sleep(ctx, 0)
		default:
			p.sleep(ctx, idle)
			idle = min(idle*2, maxIdle)
		}
	}
}

// pollWatchWindow is how long a GET /api/preview counts as someone watching: the
// console polls only while its event stream is down, and must still see frames then.
const pollWatchWindow = 5 * time.Second

func (p *Preview) shouldCapture() bool {
	return (p.watchers.count() > 0 || p.polled()) && !p.isFrozen()
}

// polled reports whether a console fell back to polling in the last pollWatchWindow.
func (p *Preview) polled() bool { return time.Since(time.Unix(0, p.lastPoll.Load())) < pollWatchWindow }

// NotePoll records a fallback poll (GET /api/preview) and wakes the loop.
func (p *Preview) NotePoll() {
	p.lastPoll.Store(time.Now().UnixNano())
	p.Poke()
}

// waitForWork parks until something that could make capturing worthwhile changes.
func (p *Preview) waitForWork(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-p.watchers.changes():
	case <-p.reg.Changes():
	case <-p.wake:
	case <-time.After(2 * time.Second):
	}
}

func (p *Preview) sleep(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	case <-p.wake:
	}
}

// captureOnce grabs one frame and hands it to the encoder when its pixels changed.
// Equality is checked on the exact pixels (CRC-32C, about 1 ms for 1080×2400) rather
// than the perceptual hash, which is too coarse to notice a typed character.
func (p *Preview) captureOnce(ctx context.Context, serial string) (bool, error) {
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if !p.fetching(cancel) {
		return false, nil // frozen meanwhile
	}
	defer p.fetching(nil)
	start := time.Now()
	img, err := capture.CaptureFrame(cctx, p.client.Device(serial), "")
	if err != nil {
		if p.isFrozen() {
			return false, nil // a freeze let go of the link (SetFrozen)
		}
		return false, fmt.Errorf("capture frame from %s: %w", serial, err)
	}
	sum := capture.PixelsCRC(img)
	p.mu.Lock()
	same := sum == p.lastCRC
	p.lastCRC = sum
	p.mu.Unlock()
	if !same {
		p.noteChange()
	}
	p.stillFrames.note(serial, img, sum, start, p.changes.Load())
	if same {
		if st, live := p.currentStatus(), p.liveStatus(); st != live {
			p.setStatus(serial, live)
		}
		return false, nil
	}
	next := pendingFrame{serial: serial, img: img, sum: sum, capturedAt: start}
	select {
	case p.encode <- next:
	default:
		// The encoder is still busy and an older frame waits: replace it.
		select {
		case <-p.encode:
		default:
		}
		p.encode <- next
	}
	return true, nil
}

// encodeLoop turns handed-over frames into previews until ctx ends.
func (p *Preview) encodeLoop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case f := <-p.encode:
			if _, err := p.publish(f.serial, f.img, f.sum, f.capturedAt); err != nil {
				p.log.Warn("encode preview", "serial", f.serial, "err", err)
			}
		}
	}
}

// PublishFrame encodes and announces one decoded frame at once (benchmarks and tests;
// the live loop goes through captureOnce and the encoder).
func (p *Preview) PublishFrame(serial string, img *image.NRGBA, capturedAt time.Time) (bool, error) {
	return p.publish(serial, img, capture.PixelsCRC(img), capturedAt)
}

// publish turns a decoded frame into a JPEG preview and announces it with preview-ready.
func (p *Preview) publish(serial string, img *image.NRGBA, sum uint32, capturedAt time.Time) (bool, error) {
	var buf bytes.Buffer
	if _, _, err := capture.EncodePreview(&buf, img, capture.LivePreview(int(p.stageHeight.Load()))); err != nil {
		return false, err
	}
	b := img.Bounds()
	frame := &previewFrame{
		ID:         "p" + strconv.FormatUint(p.seq.Add(1), 10),
		Serial:     serial,
		Width:      b.Dx(),
		Height:     b.Dy(),
		JPEG:       buf.Bytes(),
		Perceptual: capture.PerceptualHash(img),
		pixelsCRC:  sum,
		CapturedAt: capturedAt,
	}
	p.mu.Lock()
	if p.frozen {
		p.mu.Unlock()
		return false, nil // froze while we captured: the console shows the frozen frame
	}
	p.mu.Unlock()
	p.frames.Add(frame)
	p.keepRaw(frame)
	p.setStatus(serial, p.liveStatus())
	PreviewReadyEvent.Publish(p.bus, *frame.info())
	return true, nil
}

// checkBlocked asks the device whether a live preview can show the app at all.
func (p *Preview) checkBlocked(ctx context.Context, serial string) *PreviewStatus {
	cctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	st, err := capture.ReadScreenState(cctx, p.client.Device(serial))
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return nil
		}
		return &PreviewStatus{State: StateBlocked, Reason: ReasonDeviceGone, Message: fmt.Sprintf("%s stopped answering: %v", serial, err)}
	}
	p.sidekicks.notePackage(serial, st.Package)
	p.secure.Store(st.Secure)
	p.rotation.Store(int32(st.Rotation))
	switch {
	case !st.ScreenOn:
		return &PreviewStatus{State: StateBlocked, Reason: ReasonScreenOff, Message: "The screen is off. Wake the device to continue."}
	case st.Keyguard:
		return &PreviewStatus{State: StateBlocked, Reason: ReasonKeyguard, Message: "The device is locked. Unlock it to continue."}
	}
	return nil
}

// liveStatus is the live state with what the last screen-state check added to it.
func (p *Preview) liveStatus() PreviewStatus {
	return PreviewStatus{State: StateLive, Secure: p.secure.Load()}
}

func (p *Preview) currentStatus() PreviewStatus {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.status
}

// NoteVideo republishes the status after serial's video stream was refused, so the
// console shows why it gets raw frames.
func (p *Preview) NoteVideo(serial string) {
	p.setStatus(serial, p.currentStatus())
}

// setStatus records the status and publishes preview-status when it changed.
func (p *Preview) setStatus(serial string, st PreviewStatus) {
	if p.videoNote != nil && serial != "" {
		st.VideoUnavailable = p.videoNote(serial)
	}
	p.mu.Lock()
	if p.frozen && st.State != StateFrozen && st.State != StateBlocked && st.State != StateNoDevice {
		st = PreviewStatus{State: StateFrozen}
	}
	changed := p.status != st
	p.status = st
	p.mu.Unlock()
	if changed {
		PreviewStatusChangedEvent.Publish(p.bus, PreviewStatusEvent{Serial: serial, Status: st})
	}
}

func (f *previewFrame) info() *PreviewFrame {
	return &PreviewFrame{
		PreviewID:  f.ID,
		Serial:     f.Serial,
		Width:      f.Width,
		Height:     f.Height,
		URL:        "/api/preview/" + f.ID + "/image",
		CapturedAt: f.CapturedAt.UTC().Format(time.RFC3339Nano),
	}
}

// Latest returns the Preview document of docs/api.md.
func (p *Preview) Latest() PreviewDoc {
	p.checkDeviceStatus()
	doc := PreviewDoc{Status: p.currentStatus(), Paint: p.paints.last()}
	if f, ok := p.frames.Latest(); ok {
		doc.PreviewAvailable = true
		doc.PreviewFrame = f.info()
	}
	return doc
}

// SetStageHeight records how tall the console's stage is in device pixels, so live
// frames are encoded at the size they are shown. It returns the height it keeps.
func (p *Preview) SetStageHeight(h int) int {
	h = min(max(h, 360), 2400)
	p.stageHeight.Store(int64(h))
	return h
}

// JPEG returns a kept live frame's image.
func (p *Preview) JPEG(id string) ([]byte, bool) {
	if f, ok := p.frames.Get(id); ok {
		return f.JPEG, true
	}
	return nil, false
}

// Landscape reports whether the last screen-state check found the display turned a
// quarter, so the video must be coded the other way round.
func (p *Preview) Landscape() bool { return p.rotation.Load()%2 == 1 }

// selectedIs reports whether serial is FixThis's selected phone, the one the raw-frame
// loop, the screen-state checks and the warm tree follow.
func (p *Preview) selectedIs(serial string) bool {
	dev, err := p.reg.Selected()
	return err == nil && dev.Serial == serial
}

// StageHeight is the console's stage height in device pixels (0: not reported yet).
func (p *Preview) StageHeight() int { return int(p.stageHeight.Load()) }

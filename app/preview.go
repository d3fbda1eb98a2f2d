package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"fixthis/capture"
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

// previewStatus is Preview.status in docs/api.md.
type previewStatus struct {
	State   string `json:"state"` // live | frozen | blocked | no-device | stale
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// previewLoop mirrors the selected device. It is push-first: each new frame is
// announced with preview-ready and fetched by the browser by URL. It captures only while
// a console watches, the preview is not frozen and a device is selected; it skips frames
// whose pixels did not change and backs off while the screen is idle. It is strictly
// sequential, so frames never queue behind a slow device: the latest frame wins.
type previewLoop struct {
	a        *App
	seq      atomic.Uint64
	lastPoll atomic.Int64 // unix nanos of the last GET /api/preview
	// stageHeight is the console's stage height in device pixels; previews are encoded
	// no taller (0: the default).
	stageHeight atomic.Int64

	mu      sync.Mutex
	frames  []*previewFrame // newest last, bounded
	status  previewStatus
	frozen  bool
	wake    chan struct{}
	lastCRC uint32 // pixels of the last frame handed to the encoder

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

func newPreviewLoop(a *App) *previewLoop {
	return &previewLoop{a: a, wake: make(chan struct{}, 1), encode: make(chan pendingFrame, 1), status: previewStatus{State: "no-device", Message: "Connect a device or use the demo device"}}
}

// poke wakes the loop early (a tap, a resume, a device change).
func (p *previewLoop) poke() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

func (p *previewLoop) setFrozen(frozen bool) {
	p.mu.Lock()
	p.frozen = frozen
	p.mu.Unlock()
	if frozen {
		p.setStatus("", previewStatus{State: "frozen"})
	} else {
		p.mu.Lock()
		p.lastCRC = 0 // announce the next frame even if unchanged: the console left the frozen image
		p.mu.Unlock()
		p.poke()
	}
}

func (p *previewLoop) isFrozen() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.frozen
}

// run is the loop. Intervals: as fast as the device answers while frames change,
// doubling up to 1 s while they do not, 2 s between screen-state checks.
func (p *previewLoop) run(ctx context.Context) {
	go p.encodeLoop(ctx)
	const minIdle, maxIdle = 50 * time.Millisecond, time.Second
	idle := minIdle
	var lastStateCheck time.Time
	for ctx.Err() == nil {
		if !p.shouldCapture() {
			p.waitForWork(ctx)
			idle = minIdle
			continue
		}
		dev, err := p.a.devices.Selected()
		if err != nil {
			p.setStatus("", previewStatus{State: "no-device", Message: err.Error()})
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
		changed, err := p.captureOnce(ctx, dev.Serial)
		switch {
		case err != nil:
			lastStateCheck = time.Time{} // find out why on the next round
			p.setStatus(dev.Serial, previewStatus{State: "stale", Reason: "capture_failed", Message: err.Error()})
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

func (p *previewLoop) shouldCapture() bool {
	watched := p.a.watchers.Load() > 0 || time.Since(time.Unix(0, p.lastPoll.Load())) < pollWatchWindow
	return watched && !p.isFrozen()
}

// notePoll records a fallback poll and wakes the loop.
func (p *previewLoop) notePoll() {
	p.lastPoll.Store(time.Now().UnixNano())
	p.poke()
}

// waitForWork parks until something that could make capturing worthwhile changes.
func (p *previewLoop) waitForWork(ctx context.Context) {
	p.a.watchersMu.Lock()
	watchers := p.a.watchersChanged
	p.a.watchersMu.Unlock()
	select {
	case <-ctx.Done():
	case <-watchers:
	case <-p.a.devices.changes():
	case <-p.wake:
	case <-time.After(2 * time.Second):
	}
}

func (p *previewLoop) sleep(ctx context.Context, d time.Duration) {
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

// captureOnce grabs one raw frame and hands it to the encoder when its pixels changed.
// Equality is checked on the exact pixels (CRC-32C, about 1 ms for 1080×2400) rather
// than the perceptual hash, which is too coarse to notice a typed character.
func (p *previewLoop) captureOnce(ctx context.Context, serial string) (bool, error) {
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	start := time.Now()
	raw, err := p.a.adb.Exec(cctx, serial, "screencap")
	if err != nil {
		return false, fmt.Errorf("capture frame from %s: %w", serial, err)
	}
	img, err := capture.DecodeFrame(raw)
	if err != nil {
		return false, fmt.Errorf("decode frame from %s: %w", serial, err)
	}
	sum := crc32.Checksum(img.Pix, crcTable)
	p.mu.Lock()
	same := sum == p.lastCRC
	p.lastCRC = sum
	p.mu.Unlock()
	if same {
		if st := p.currentStatus(); st.State != "live" {
			p.setStatus(serial, previewStatus{State: "live"})
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
func (p *previewLoop) encodeLoop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case f := <-p.encode:
			if _, err := p.publish(f.serial, f.img, f.sum, f.capturedAt); err != nil {
				p.a.log.Warn("encode preview", "serial", f.serial, "err", err)
			}
		}
	}
}

// publishFrame encodes and announces one decoded frame at once (benchmarks and tests;
// the live loop goes through captureOnce and the encoder).
func (p *previewLoop) publishFrame(serial string, img *image.NRGBA, capturedAt time.Time) (bool, error) {
	return p.publish(serial, img, crc32.Checksum(img.Pix, crcTable), capturedAt)
}

// publish turns a decoded frame into a JPEG preview and announces it with preview-ready.
func (p *previewLoop) publish(serial string, img *image.NRGBA, sum uint32, capturedAt time.Time) (bool, error) {
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
	p.frames = append(p.frames, frame)
	if len(p.frames) > keptPreviewFrames {
		p.frames = p.frames[len(p.frames)-keptPreviewFrames:]
	}
	p.mu.Unlock()
	p.setStatus(serial, previewStatus{State: "live"})
	p.a.bus.Publish("preview-ready", p.payloadOf(frame))
	return true, nil
}

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// checkBlocked asks the device whether a live preview can show the app at all.
func (p *previewLoop) checkBlocked(ctx context.Context, serial string) *previewStatus {
	cctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	st, err := capture.ReadScreenState(cctx, p.a.captureDevice(serial))
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return nil
		}
		return &previewStatus{State: "blocked", Reason: "device_gone", Message: fmt.Sprintf("%s stopped answering: %v", serial, err)}
	}
	p.a.sidekicks.notePackage(serial, st.Package)
	switch {
	case !st.ScreenOn:
		return &previewStatus{State: "blocked", Reason: "screen_off", Message: "The screen is off. Wake the device to continue."}
	case st.Keyguard:
		return &previewStatus{State: "blocked", Reason: "keyguard", Message: "The device is locked. Unlock it to continue."}
	}
	return nil
}

func (p *previewLoop) currentStatus() previewStatus {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.status
}

// setStatus records the status and publishes preview-status when it changed.
func (p *previewLoop) setStatus(serial string, st previewStatus) {
	p.mu.Lock()
	if p.frozen && st.State != "frozen" && st.State != "blocked" {
		st = previewStatus{State: "frozen"}
	}
	changed := p.status != st
	p.status = st
	p.mu.Unlock()
	if changed {
		p.a.bus.Publish("preview-status", map[string]any{"serial": serial, "status": st})
	}
}

func (p *previewLoop) payloadOf(f *previewFrame) map[string]any {
	return map[string]any{
		"previewId":  f.ID,
		"serial":     f.Serial,
		"width":      f.Width,
		"height":     f.Height,
		"url":        "/api/preview/" + f.ID + "/image",
		"capturedAt": f.CapturedAt.UTC().Format(time.RFC3339Nano),
	}
}

// latest returns the Preview document of docs/api.md.
func (p *previewLoop) latest() map[string]any {
	p.mu.Lock()
	var f *previewFrame
	if n := len(p.frames); n > 0 {
		f = p.frames[n-1]
	}
	st := p.status
	p.mu.Unlock()
	out := map[string]any{"previewAvailable": f != nil, "status": st}
	if f != nil {
		for k, v := range p.payloadOf(f) {
			out[k] = v
		}
	}
	return out
}

func (p *previewLoop) frame(id string) *previewFrame {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, f := range p.frames {
		if f.ID == id {
			return f
		}
	}
	return nil
}

// postPreviewStage records how tall the console's stage is in device pixels, so live
// frames are encoded at the size they are shown.
func (a *App) postPreviewStage(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Height int `json:"height"`
	}
	if err := decodeJSON(r, &req); err != nil {
		writeError(w, err)
		return
	}
	if req.Height <= 0 {
		writeError(w, errorf(http.StatusUnprocessableEntity, "invalid_input", "INVALID_INPUT: height must be a positive number of device pixels"))
		return
	}
	h := min(max(req.Height, 360), 2400)
	a.preview.stageHeight.Store(int64(h))
	writeJSON(w, http.StatusOK, map[string]int{"height": h})
}

func (a *App) getPreview(w http.ResponseWriter, r *http.Request) {
	a.preview.notePoll()
	writeJSON(w, http.StatusOK, a.preview.latest())
}

func (a *App) getPreviewImage(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("previewId")
	if f := a.preview.frame(id); f != nil {
		w.Header().Set("Content-Type", "image/jpeg")
		w.Header().Set("Cache-Control", "private, max-age=3600, immutable")
		_, _ = w.Write(f.JPEG)
		return
	}
	if fz := a.frozen.get(id); fz != nil {
		w.Header().Set("Content-Type", "image/png")
		w.Header().Set("Cache-Control", "private, max-age=3600, immutable")
		_, _ = w.Write(fz.PNG)
		return
	}
	writeError(w, errorf(http.StatusNotFound, "preview_not_found", "PREVIEW_NOT_FOUND: preview %s is gone; live frames are kept briefly", id))
}

package device

import (
	"bytes"
	"context"
	"image"
	"sync"
	"time"

	"fixthis/app/store"
	"fixthis/capture"
)

// KeptScreen is one screen of a phone as FixThis keeps it: the capture (frame, UI
// tree, screen state), the display conditions it was shown under, read at the same
// time, and its PNG. A freeze keeps one, and so does the current-screen cache of a
// phone a voice session watches; a save turns either into a saved screen.
type KeptScreen struct {
	ID         string
	Serial     string
	Snapshot   *capture.Snapshot
	CapturedAt time.Time
	// Conditions is what differed from the phone's defaults (dark theme, font
	// scale, locale, ...); nil when they could not be read in time.
	Conditions *store.DisplayConditions

	pngOnce sync.Once
	png     []byte
	pngErr  error
	// pngAhead, when set, delivers the PNG of the frame, encoded beside the capture
	// (still_frame.go); PNG waits for it instead of encoding again.
	pngAhead <-chan encodedPNG
}

type encodedPNG struct {
	png []byte
	err error
}

// PNG is the screen's image, encoded once on first use.
func (k *KeptScreen) PNG() ([]byte, error) {
	k.pngOnce.Do(func() {
		if k.pngAhead != nil {
			e := <-k.pngAhead
			k.png, k.pngErr = e.png, e.err
			return
		}
		k.png, k.pngErr = encodeScreenPNG(k.Snapshot.Frame)
	})
	return k.png, k.pngErr
}

// encodeAhead starts encoding img, the frame a capture will use, before the capture.
func encodeAhead(img *image.NRGBA) <-chan encodedPNG {
	ch := make(chan encodedPNG, 1)
	go func() {
		b, err := encodeScreenPNG(img)
		ch <- encodedPNG{b, err}
	}()
	return ch
}

func encodeScreenPNG(img *image.NRGBA) ([]byte, error) {
	var buf bytes.Buffer
	err := capture.EncodeScreenPNG(&buf, img)
	return buf.Bytes(), err
}

// NewKeptScreen keeps a capture made elsewhere (conditions unknown).
func NewKeptScreen(id, serial string, snap *capture.Snapshot) *KeptScreen {
	return &KeptScreen{ID: id, Serial: serial, Snapshot: snap, CapturedAt: time.Now()}
}

// keep keeps serial's screen with the service's capturer and conditions reader.
func (s *Service) keep(ctx context.Context, serial, id string) (*KeptScreen, error) {
	return Keep(ctx, s.Capturer, serial, id, s.conditions)
}

// Keep captures serial and reads its display conditions in parallel (when
// conditions is set), so they are the conditions of the frame rather than of a
// later moment. Freezes, the current-screen cache and agents' captures keep their
// screens through it.
func Keep(ctx context.Context, c *Capturer, serial, id string,
	conditions func(ctx context.Context, serial string) *store.DisplayConditions) (*KeptScreen, error) {
	return keepWith(ctx, c, serial, id, conditions, nil)
}

// keepWith is Keep; a non-nil frame is a frame of the screen now, taken moments ago,
// so only the tree and the state are read.
func keepWith(ctx context.Context, c *Capturer, serial, id string,
	conditions func(ctx context.Context, serial string) *store.DisplayConditions, frame *image.NRGBA) (*KeptScreen, error) {
	read := make(chan *store.DisplayConditions, 1)
	go func() {
		if conditions == nil {
			read <- nil
			return
		}
		read <- conditions(ctx, serial)
	}()
	snap, err := c.capture(ctx, serial, frame)
	cond := <-read
	if err != nil {
		return nil, err
	}
	return &KeptScreen{ID: id, Serial: serial, Snapshot: snap, CapturedAt: time.Now(), Conditions: cond}, nil
}

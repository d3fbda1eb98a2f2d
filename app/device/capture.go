package device

import (
	"context"
	"errors"
	"image"
	"time"

	"fixthis/adb"
	"fixthis/capture"
)

// Capturer is the one way FixThis captures a screen: the frame, the UI tree (through
// the app's sidekick when it carries one, else uiautomator) and the screen state. The
// console's freezes, the MCP capture tool and `fixthis capture` all use it. It keeps
// sidekick connections (and their forwards) until Close or Forget.
type Capturer struct {
	client    *adb.Client
	sidekicks *sidekicks
	// warm, when set, offers a tree dumped while the screen was still (warm.go),
	// waiting for one being dumped under the current screen.
	warm func(ctx context.Context, serial string) *capture.WarmTree
	// appIndexes caches the source index each installed app carries (appindex.go).
	appIndexes appIndexes
}

// NewCapturer returns a Capturer on client.
func NewCapturer(client *adb.Client) *Capturer {
	return &Capturer{client: client, sidekicks: newSidekicks(client)}
}

// Capture takes one capture of serial. A sidekick that failed to answer is dropped,
// so the next capture reconnects instead of paying uiautomator for the rest of the run;
// one that answered with a tree that was not used (a dialog, a screen without Compose)
// is kept.
func (c *Capturer) Capture(ctx context.Context, serial string) (*capture.Snapshot, error) {
	return c.capture(ctx, serial, nil)
}

// capture is Capture; a non-nil frame is used as the picture of the screen now
// (still_frame.go), so only the tree and the state are read.
func (c *Capturer) capture(ctx context.Context, serial string, frame *image.NRGBA) (*capture.Snapshot, error) {
	// The frame does not wait for the sidekick: a device's first capture connects it
	// (a state read, the session file, a forward, heartbeat and status), which took
	// `fixthis capture` 85 ms before its frame started.
	var grab struct {
		done chan struct{}
		img  *image.NRGBA
		err  error
		took time.Duration
	}
	if frame == nil {
		grab.done = make(chan struct{})
		go func() {
			defer close(grab.done)
			t := time.Now()
			grab.img, grab.err = capture.CaptureFrame(ctx, c.client.Device(serial), "")
			grab.took = time.Since(t)
		}()
	}
	sk, state := c.sidekicks.forDevice(ctx, serial)
	opts := capture.Options{Sidekick: sk, State: state, Frame: frame}
	if grab.done != nil {
		opts.FrameTaken = func() (*image.NRGBA, error) {
			<-grab.done
			return grab.img, grab.err
		}
	}
	if sk == nil && c.warm != nil {
		opts.Warm = c.warm(ctx, serial)
	}
	snap, err := capture.Capture(ctx, c.client.Device(serial), opts)
	if err == nil && grab.done != nil {
		snap.Timings.Frame = grab.took
	}
	if sk != nil && (err != nil || (snap.SidekickErr != nil && !errors.Is(snap.SidekickErr, capture.ErrSidekickTreeUnused))) {
		c.sidekicks.forget(context.WithoutCancel(ctx), serial)
	}
	return snap, err
}

// Forget closes the sidekick connections of serial and removes the forwards FixThis
// made for them.
func (c *Capturer) Forget(ctx context.Context, serial string) { c.sidekicks.forget(ctx, serial) }

// Close forgets every device's sidekicks.
func (c *Capturer) Close(ctx context.Context) { c.sidekicks.forgetAll(ctx) }

// Glance takes a light capture of serial: the frame and the screen state, no UI tree.
// It tells whether the device still shows a frozen screen.
func (c *Capturer) Glance(ctx context.Context, serial string) (*capture.Snapshot, error) {
	return capture.Capture(ctx, c.client.Device(serial), capture.Options{SkipTree: true})
}

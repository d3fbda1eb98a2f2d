package adb

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"fixthis/internal/tick"
)

// Devices runs `host:devices-l` (what `adb devices -l` asks) and returns every
// device the server knows, usable or not.
func (c *Client) Devices(ctx context.Context) ([]Device, error) {
	b, err := c.hostQuery(ctx, "host:devices-l")
	if err != nil {
		return nil, fmt.Errorf("list devices: %w", err)
	}
	return parseDevices(string(b)), nil
}

// Track runs `host:track-devices-l` (falling back to `host:track-devices` on
// servers without it) and calls fn with the full device list at once and after
// every change. It returns only with an error: the context's when ctx ends,
// one wrapping ErrServerUnavailable when the server goes away, so the caller
// can reconnect (see Watch).
func (c *Client) Track(ctx context.Context, fn func([]Device)) error {
	cn, err := c.dial(ctx)
	if err != nil {
		return fmt.Errorf("track devices: %w", err)
	}
	defer func() { cn.Close() }()
	if err := cn.request("host:track-devices-l"); err != nil {
		var fe *FailError
		if !errors.As(err, &fe) {
			return fmt.Errorf("track devices: %w", err)
		}
		// Servers older than track-devices-l: the short form still tracks.
		cn.Close()
		if cn, err = c.dial(ctx); err != nil {
			return fmt.Errorf("track devices: %w", err)
		}
		if err := cn.request("host:track-devices"); err != nil {
			return fmt.Errorf("track devices: %w", err)
		}
	}
	for {
		b, err := readHexPrefixed(cn)
		if err != nil {
			err = cn.ioErr("track devices", err)
			if ctx.Err() == nil && !errors.Is(err, ErrServerUnavailable) {
				// Any broken track stream means the server is not serving us.
				err = fmt.Errorf("%w: %w", ErrServerUnavailable, err)
			}
			return err
		}
		fn(parseDevices(string(b)))
	}
}

// WatchEvent is one report from Watch.
type WatchEvent struct {
	Devices  []Device // the whole current list; empty while the server is down
	ServerUp bool     // false once per outage, true again with the first list after it
	Err      error    // why the server is considered down (ServerUp false)
}

// watchPoll is how often Watch re-reads `host:devices-l` besides tracking:
// adb servers up to at least 29 mark a network device offline when its
// connection drops without telling track-devices clients, so tracking alone
// would keep showing a dead device as online.
const watchPoll = time.Second

// Watch keeps the device list current for as long as ctx lives. It reports
// the list whenever it changes (from Track, and from a poll every second that
// catches the changes adb does not announce), reports the server as down once
// per outage when tracking fails, and reconnects with backoff (100 ms doubling
// to 2 s) until the server answers again. It does not start a server; call
// EnsureServer for that. fn is never called concurrently. Watch returns ctx's
// error.
func (c *Client) Watch(ctx context.Context, fn func(WatchEvent)) error {
	const minBackoff, maxBackoff = 100 * time.Millisecond, 2 * time.Second
	w := &watcher{fn: fn, down: true}
	backoff := minBackoff
	for {
		err := c.watchOnce(ctx, w)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if w.serving() {
			backoff = minBackoff
		}
		w.serverDown(err)
		t := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		backoff = min(backoff*2, maxBackoff)
	}
}

// watchOnce tracks devices, polling alongside, until tracking fails.
func (c *Client) watchOnce(ctx context.Context, w *watcher) error {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick.Every(ctx, watchPoll, func() {
			// A failed poll is left to Track, which notices a dead server.
			if devs, err := c.Devices(ctx); err == nil && ctx.Err() == nil {
				w.list(devs, false)
			}
		})
	}()
	return c.Track(ctx, func(devs []Device) { w.list(devs, true) })
}

// watcher serialises Watch's reports and drops repeats of the same list.
type watcher struct {
	fn func(WatchEvent)

	mu      sync.Mutex
	down    bool   // no list reported since the last outage (or ever)
	last    string // key of the last reported list
	tracked bool   // Track delivered a list since the last outage
}

func (w *watcher) list(devs []Device, fromTrack bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if fromTrack {
		w.tracked = true
	} else if w.down {
		return // only Track announces that the server is back
	}
	key := listKey(devs)
	if !w.down && key == w.last {
		return
	}
	w.down, w.last = false, key
	w.fn(WatchEvent{Devices: devs, ServerUp: true})
}

func (w *watcher) serving() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.tracked
}

func (w *watcher) serverDown(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.tracked = false
	if w.down && w.last != "" {
		return // already reported for this outage
	}
	w.down, w.last = true, "down"
	w.fn(WatchEvent{ServerUp: false, Err: err})
}

// listKey identifies a device list by what the console shows of it.
func listKey(devs []Device) string {
	var b strings.Builder
	for _, d := range devs {
		fmt.Fprintf(&b, "%s\x00%s\x00%d\x00%s\x00%s\x00%s\n", d.Serial, d.State, d.TransportID, d.Model, d.Product, d.DeviceName)
	}
	return b.String()
}

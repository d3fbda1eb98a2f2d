package adb

import (
	"context"
	"errors"
	"fmt"
	"time"
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

// Watch keeps Track running for as long as ctx lives: it reports the device
// list on every change, reports the server as down (once per outage) when
// Track fails, and reconnects with backoff (100 ms doubling to 2 s) until the
// server answers again. It does not start a server; call EnsureServer for that.
// It returns ctx's error.
func (c *Client) Watch(ctx context.Context, fn func(WatchEvent)) error {
	const minBackoff, maxBackoff = 100 * time.Millisecond, 2 * time.Second
	backoff := minBackoff
	down := false
	for {
		gotList := false
		err := c.Track(ctx, func(devs []Device) {
			gotList = true
			down = false
			fn(WatchEvent{Devices: devs, ServerUp: true})
		})
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if gotList {
			backoff = minBackoff
		}
		if !down {
			down = true
			fn(WatchEvent{ServerUp: false, Err: err})
		}
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

package adb

import (
	"context"
	"fmt"
	"strings"
)

// Connect runs `host:connect:ADDR` (what `adb connect ADDR` does). FixThis
// uses it only for its own simulated device. The server answers OKAY even
// when connecting fails, so the reply text decides.
func (c *Client) Connect(ctx context.Context, addr string) error {
	b, err := c.hostQuery(ctx, "host:connect:"+addr)
	if err != nil {
		return fmt.Errorf("connect %s: %w", addr, err)
	}
	msg := strings.TrimSpace(string(b))
	if strings.HasPrefix(msg, "connected to") || strings.HasPrefix(msg, "already connected to") {
		return nil
	}
	return fmt.Errorf("connect %s: %s", addr, msg)
}

// Disconnect runs `host:disconnect:ADDR` (what `adb disconnect ADDR` does).
// FixThis uses it only for the serial of its own simulated device, never for
// a user's devices.
func (c *Client) Disconnect(ctx context.Context, addr string) error {
	if addr == "" {
		// An empty address would disconnect every network device.
		return fmt.Errorf("disconnect: no address given")
	}
	b, err := c.hostQuery(ctx, "host:disconnect:"+addr)
	if err != nil {
		return fmt.Errorf("disconnect %s: %w", addr, err)
	}
	msg := strings.TrimSpace(string(b))
	if strings.HasPrefix(msg, "disconnected") {
		return nil
	}
	return fmt.Errorf("disconnect %s: %s", addr, msg)
}

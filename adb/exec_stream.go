package adb

import (
	"context"
	"io"
)

// ExecStream opens `exec:CMD` and returns its output as the device writes it, for
// commands that run until stopped (`screenrecord … -`). Closing the reader closes
// the service, which ends the command on the device. Cancelling ctx unblocks a read.
func (c *Client) ExecStream(ctx context.Context, serial, cmd string) (io.ReadCloser, error) {
	cn, err := c.openService(ctx, serial, "exec:"+cmd)
	if err != nil {
		return nil, err
	}
	return cn, nil
}

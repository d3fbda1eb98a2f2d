package adb

import (
	"bytes"
	"context"
	"fmt"
	"io"
)

// ExecInput runs `exec:CMD` and writes in to the command's stdin while reading its
// stdout: how `adb install` streams an APK into `cmd package install -S SIZE`,
// which reads exactly SIZE bytes and then prints its verdict. Output is read until
// the device closes the stream.
func (c *Client) ExecInput(ctx context.Context, serial, cmd string, in io.Reader) ([]byte, error) {
	cn, err := c.openService(ctx, serial, "exec:"+cmd)
	if err != nil {
		return nil, err
	}
	defer cn.Close()
	werr := make(chan error, 1)
	go func() {
		_, err := io.Copy(cn, in)
		werr <- err
	}()
	var out bytes.Buffer
	_, rerr := io.Copy(&out, cn)
	if err := c.streamEnded(ctx, serial, "exec "+cmd, rerr); err != nil {
		return out.Bytes(), err
	}
	// A command that exits before reading all of its input closes the stream; what
	// it printed says why, so a write error then is not the story.
	select {
	case err := <-werr:
		if err != nil && out.Len() == 0 {
			return nil, fmt.Errorf("exec %s on %s: write input: %w", cmd, serial, err)
		}
	default:
	}
	return out.Bytes(), nil
}

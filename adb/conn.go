package adb

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"time"
)

// conn is one socket to the adb server, bound to a context: when the context
// is cancelled or its deadline passes, pending reads and writes fail at once
// (the socket deadline is moved to the past), so no call can hang on a stuck
// device or server. gadb has a single global read timeout and no way to
// cancel, which is why every service here goes through conn instead.
type conn struct {
	nc   net.Conn
	ctx  context.Context
	stop func() bool
}

// aLongTimeAgo is a deadline that makes blocked I/O return immediately.
var aLongTimeAgo = time.Unix(1, 0)

func newConn(ctx context.Context, nc net.Conn) *conn {
	c := &conn{nc: nc, ctx: ctx}
	// Only the context moves the deadline (not ctx.Deadline() up front), so
	// a timed-out call always reports the context's error.
	c.stop = context.AfterFunc(ctx, func() { _ = nc.SetDeadline(aLongTimeAgo) })
	return c
}

func (c *conn) Read(p []byte) (int, error)  { return c.nc.Read(p) }
func (c *conn) Write(p []byte) (int, error) { return c.nc.Write(p) }

// Close releases the socket; closing it is also how the adb server learns
// that a device service (shell, exec, track) should end.
func (c *conn) Close() error {
	c.stop()
	return c.nc.Close()
}

// send writes one framed request.
func (c *conn) send(service string) error {
	req, err := encodeRequest(service)
	if err != nil {
		return err
	}
	if _, err := c.nc.Write(req); err != nil {
		return c.ioErr(fmt.Sprintf("send %s", service), err)
	}
	return nil
}

// request sends a service and waits for its OKAY/FAIL status.
func (c *conn) request(service string) error {
	if err := c.send(service); err != nil {
		return err
	}
	if err := readStatus(c.nc, service); err != nil {
		var fe *FailError
		if errors.As(err, &fe) {
			return err
		}
		return c.ioErr(fmt.Sprintf("request %s", service), err)
	}
	return nil
}

// ioErr explains an I/O failure: the context's own error when it ended,
// ErrServerUnavailable when the server hung up on us.
func (c *conn) ioErr(op string, err error) error {
	if cerr := c.ctx.Err(); cerr != nil {
		return fmt.Errorf("%s: %w", op, context.Cause(c.ctx))
	}
	if isHangup(err) {
		return fmt.Errorf("%s: %w: %w", op, ErrServerUnavailable, err)
	}
	return fmt.Errorf("%s: %w", op, err)
}

// isHangup reports whether err means the peer closed or reset the socket.
func isHangup(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, net.ErrClosed)
}

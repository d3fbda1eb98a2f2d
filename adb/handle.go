package adb

import (
	"context"
	"io"
	"os"
	"time"
)

// Handle is one device as every command FixThis runs on it sees it: the adb client
// and a serial. It is the one way the app, capture, the run flow and runtime
// evidence reach a device; packages that are tested on literal device output take
// the narrow interface they need, which Handle satisfies as it is.
type Handle struct {
	c      *Client
	serial string
}

// Device returns the handle of serial. Nothing is checked until a command runs.
func (c *Client) Device(serial string) Handle { return Handle{c: c, serial: serial} }

// Serial is the device's serial.
func (h Handle) Serial() string { return h.serial }

// Client is the adb client the handle runs on.
func (h Handle) Client() *Client { return h.c }

// Shell runs cmd with `shell,v2,raw:CMD` (see Client.Shell). Build cmd with Command
// so every argument reaches the program as one word.
func (h Handle) Shell(ctx context.Context, cmd string) (ShellResult, error) {
	return h.c.Shell(ctx, h.serial, cmd)
}

// Exec runs `exec:CMD` for binary stdout (see Client.Exec).
func (h Handle) Exec(ctx context.Context, cmd string) ([]byte, error) {
	return h.c.Exec(ctx, h.serial, cmd)
}

// ExecSized runs `exec:CMD` for binary stdout whose first bytes tell its length
// (see Client.ExecSized).
func (h Handle) ExecSized(ctx context.Context, cmd string, size func(head []byte) int) ([]byte, error) {
	return h.c.ExecSized(ctx, h.serial, cmd, size)
}

// ExecInput runs `exec:CMD` with in as its stdin (see Client.ExecInput).
func (h Handle) ExecInput(ctx context.Context, cmd string, in io.Reader) ([]byte, error) {
	return h.c.ExecInput(ctx, h.serial, cmd, in)
}

// ExecStream opens `exec:CMD` and returns its output as it comes (see
// Client.ExecStream).
func (h Handle) ExecStream(ctx context.Context, cmd string) (io.ReadCloser, error) {
	return h.c.ExecStream(ctx, h.serial, cmd)
}

// Push copies src to remote over `sync:` (see Client.Push).
func (h Handle) Push(ctx context.Context, src io.Reader, remote string, perm os.FileMode, mtime time.Time) error {
	return h.c.Push(ctx, h.serial, src, remote, perm, mtime)
}

// Pull copies remote to dst over `sync:` (see Client.Pull).
func (h Handle) Pull(ctx context.Context, remote string, dst io.Writer) error {
	return h.c.Pull(ctx, h.serial, remote, dst)
}

// Features lists the transport features of the device (see Client.Features).
func (h Handle) Features(ctx context.Context) ([]string, error) {
	return h.c.Features(ctx, h.serial)
}

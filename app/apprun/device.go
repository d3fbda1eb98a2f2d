package apprun

import (
	"context"
	"io"
	"os"
	"strings"
	"time"

	"fixthis/adb"
)

// Device is the adb surface a run needs on one device.
type Device interface {
	Shell(ctx context.Context, cmd string) (stdout, stderr []byte, exitCode int, err error)
	ExecInput(ctx context.Context, cmd string, in io.Reader) ([]byte, error)
	Push(ctx context.Context, src io.Reader, remote string, perm os.FileMode, mtime time.Time) error
	Features(ctx context.Context) ([]string, error)
}

// ADBDevice adapts an adb client to Device for one serial.
func ADBDevice(client *adb.Client, serial string) Device { return adbDevice{client, serial} }

type adbDevice struct {
	c      *adb.Client
	serial string
}

func (d adbDevice) Shell(ctx context.Context, cmd string) ([]byte, []byte, int, error) {
	r, err := d.c.Shell(ctx, d.serial, cmd)
	return r.Stdout, r.Stderr, r.ExitCode, err
}

func (d adbDevice) ExecInput(ctx context.Context, cmd string, in io.Reader) ([]byte, error) {
	return d.c.ExecInput(ctx, d.serial, cmd, in)
}

func (d adbDevice) Push(ctx context.Context, src io.Reader, remote string, perm os.FileMode, mtime time.Time) error {
	return d.c.Push(ctx, d.serial, src, remote, perm, mtime)
}

func (d adbDevice) Features(ctx context.Context) ([]string, error) {
	return d.c.Features(ctx, d.serial)
}

// shellQuote quotes s for the device shell.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

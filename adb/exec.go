package adb

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// openService connects to serial's transport (`host:transport:SERIAL`) and
// starts service on it. The returned socket carries the service's stream.
func (c *Client) openService(ctx context.Context, serial, service string) (*conn, error) {
	if serial == "" {
		return nil, fmt.Errorf("adb %s: no device serial given", service)
	}
	if err := CheckSerial(serial); err != nil {
		return nil, err
	}
	cn, err := c.dial(ctx)
	if err != nil {
		return nil, err
	}
	if err := cn.request("host:transport:" + serial); err != nil {
		cn.Close()
		return nil, fmt.Errorf("open %s on %s: %w", service, serial, err)
	}
	if err := cn.request(service); err != nil {
		cn.Close()
		return nil, fmt.Errorf("open %s on %s: %w", service, serial, err)
	}
	return cn, nil
}

// State runs `host-serial:SERIAL:get-state` (what `adb -s SERIAL get-state`
// asks). A serial the server does not know gives ErrDeviceNotFound.
func (c *Client) State(ctx context.Context, serial string) (State, error) {
	if err := CheckSerial(serial); err != nil {
		return "", err
	}
	b, err := c.hostQuery(ctx, "host-serial:"+serial+":get-state")
	if err != nil {
		return "", fmt.Errorf("state of %s: %w", serial, err)
	}
	return State(strings.TrimSpace(string(b))), nil
}

// Features runs `host-serial:SERIAL:features`: the transport features both
// the device and the server support (shell_v2, cmd, stat_v2, ...).
func (c *Client) Features(ctx context.Context, serial string) ([]string, error) {
	if err := CheckSerial(serial); err != nil {
		return nil, err
	}
	b, err := c.hostQuery(ctx, "host-serial:"+serial+":features")
	if err != nil {
		return nil, fmt.Errorf("features of %s: %w", serial, err)
	}
	return parseFeatures(string(b)), nil
}

// streamEnded decides what an ended device stream means. A stream that ends
// while the device is no longer online (or the server is gone) is reported
// as such, naming the serial; otherwise cause (nil for a clean end) stands.
func (c *Client) streamEnded(ctx context.Context, serial, op string, cause error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%s on %s: %w", op, serial, context.Cause(ctx))
	}
	if cause != nil && !isHangup(cause) {
		return fmt.Errorf("%s on %s: %w", op, serial, cause)
	}
	st, err := c.State(ctx, serial)
	var fe *FailError
	switch {
	case errors.As(err, &fe):
		// "device 'X' not found", "device offline", "device unauthorized".
		return fmt.Errorf("%s on %s: %w (%s)", op, serial, ErrDeviceGone, fe.Message)
	case err != nil:
		return fmt.Errorf("%s on %s: %w", op, serial, err)
	case st != StateDevice:
		return fmt.Errorf("%s on %s: %w (now %s)", op, serial, ErrDeviceGone, st)
	case cause != nil:
		return fmt.Errorf("%s on %s: %w", op, serial, cause)
	}
	return nil
}

// Exec runs `exec:CMD` (what `adb exec-out CMD` does): stdout only, byte for
// byte, with no pty or line-ending translation. It is the path for binary
// output such as `screencap`. Because exec: has no end-of-output marker, a
// stream that ends while the device went away is reported as ErrDeviceGone.
func (c *Client) Exec(ctx context.Context, serial, cmd string) ([]byte, error) {
	return c.ExecSized(ctx, serial, cmd, nil)
}

// ExecSized is Exec for output whose first bytes tell its whole length (a raw
// screencap's header): size is given the first bytes read and answers the length
// they announce, or 0 when it cannot tell, and the output is read into one buffer
// of that length. Read through a doubling buffer, the 10 MB of a 1080×2400 frame
// cost a fresh process 200–300 ms in copies and the collections they set off,
// against 75–110 ms read into one buffer.
func (c *Client) ExecSized(ctx context.Context, serial, cmd string, size func(head []byte) int) ([]byte, error) {
	cn, err := c.openService(ctx, serial, "exec:"+cmd)
	if err != nil {
		return nil, err
	}
	defer cn.Close()
	var out bytes.Buffer
	rerr := readSized(&out, cn, size)
	if err := c.streamEnded(ctx, serial, "exec "+cmd, rerr); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// sizeProbe is how many bytes size sees; maxSized bounds what a header may make
// FixThis set aside before the bytes arrive (a 32768² RGBA frame would be 4 GiB).
const (
	sizeProbe = 4096
	maxSized  = 256 << 20
)

// readSized reads r to its end into out, setting aside what size announces first.
func readSized(out *bytes.Buffer, r io.Reader, size func(head []byte) int) error {
	if size != nil {
		head := make([]byte, sizeProbe)
		n, err := io.ReadFull(r, head)
		head = head[:n]
		if err == nil {
			if want := size(head); want > n && want <= maxSized {
				out.Grow(want + bytes.MinRead) // ReadFrom wants MinRead spare before it sees the end
			}
		}
		out.Write(head)
		switch err {
		case nil:
		case io.EOF, io.ErrUnexpectedEOF:
			return nil // all of it fitted in the probe
		default:
			return err
		}
	}
	_, err := io.Copy(out, r)
	return err
}

// ShellResult is what a shell command produced.
type ShellResult struct {
	Stdout   []byte
	Stderr   []byte // always empty on devices without shell_v2 (v1 merges it into Stdout)
	ExitCode int
}

// Shell runs cmd with `shell,v2,raw:CMD` (what `adb shell CMD` does on
// Android 7+): separate stdout and stderr, and the exit code. On devices
// without the shell_v2 feature it falls back to `shell:(CMD); echo MARK$?` and
// recovers the exit code from the marker; stderr then arrives in Stdout. A
// non-zero exit code is not an error; a stream that ends without an exit
// status is.
func (c *Client) Shell(ctx context.Context, serial, cmd string) (ShellResult, error) {
	feats, err := c.Features(ctx, serial)
	if err != nil {
		return ShellResult{}, err
	}
	if !slices.Contains(feats, "shell_v2") {
		return c.shellV1(ctx, serial, cmd)
	}
	cn, err := c.openService(ctx, serial, "shell,v2,raw:"+cmd)
	if err != nil {
		return ShellResult{}, err
	}
	defer cn.Close()
	var stdout, stderr bytes.Buffer
	code, err := decodeShellV2(cn, &stdout, &stderr)
	res := ShellResult{Stdout: stdout.Bytes(), Stderr: stderr.Bytes(), ExitCode: code}
	if err != nil {
		if errors.Is(err, errNoExitStatus) {
			if gone := c.streamEnded(ctx, serial, "shell "+cmd, nil); gone != nil {
				return res, gone
			}
			return res, fmt.Errorf("shell %s on %s: %w", cmd, serial, err)
		}
		return res, c.streamEnded(ctx, serial, "shell "+cmd, err)
	}
	return res, nil
}

// shellV1 runs `shell:(CMD); echo MARK$?` for devices without shell_v2.
func (c *Client) shellV1(ctx context.Context, serial, cmd string) (ShellResult, error) {
	cn, err := c.openService(ctx, serial, "shell:"+wrapExitMarker(cmd))
	if err != nil {
		return ShellResult{}, err
	}
	defer cn.Close()
	out, rerr := io.ReadAll(cn)
	if err := c.streamEnded(ctx, serial, "shell "+cmd, rerr); err != nil {
		return ShellResult{Stdout: out}, err
	}
	stdout, code, ok := splitExitMarker(out)
	if !ok {
		return ShellResult{Stdout: out}, fmt.Errorf("shell %s on %s: %w", cmd, serial, errNoExitStatus)
	}
	return ShellResult{Stdout: stdout, ExitCode: code}, nil
}

package capture

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"log/slog"
	"strings"
	"sync"
	"time"

	"fixthis/adb"
)

// Device is what capture runs on one Android device: the adb handle
// (adb.Client.Device) is one as it is; tests feed literal device output.
type Device interface {
	// Exec runs cmd through the exec: service and returns its binary stdout (stderr
	// may be merged in by the device, as adbd does for raw services).
	Exec(ctx context.Context, cmd string) ([]byte, error)
	// Shell runs cmd through the shell v2 service with separate streams and the
	// exit code.
	Shell(ctx context.Context, cmd string) (adb.ShellResult, error)
}

// CaptureFrame grabs the screen of a display ("" for the default one) with
// `exec:screencap` raw, the fast path with no PNG encode on the device, and falls
// back to `screencap -p` when raw output is refused or malformed.
func CaptureFrame(ctx context.Context, dev Device, displayID string) (*image.NRGBA, error) {
	args := ""
	if displayID != "" {
		if err := adb.CheckDisplay(displayID); err != nil {
			return nil, fmt.Errorf("screencap: %w", err)
		}
		args = " " + adb.Command("-d", displayID)
	}
	raw, rawErr := execRawFrame(ctx, dev, "screencap"+args)
	if rawErr == nil {
		img, err := DecodeFrame(raw)
		if err == nil {
			return img, nil
		}
		rawErr = err
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("screencap: %w", ctx.Err())
	}
	pngData, err := dev.Exec(ctx, "screencap -p"+args)
	if err != nil {
		return nil, fmt.Errorf("screencap raw: %v; screencap -p: %w", rawErr, err)
	}
	img, err := DecodePNG(pngData)
	if err != nil {
		return nil, fmt.Errorf("screencap raw: %v; screencap -p: %w", rawErr, err)
	}
	return img, nil
}

// sizedExec is a Device that reads output of a known length into one buffer
// (adb.Handle does).
type sizedExec interface {
	ExecSized(ctx context.Context, cmd string, size func(head []byte) int) ([]byte, error)
}

// execRawFrame runs a raw screencap, read into one buffer of the size its header
// announces where the device can.
func execRawFrame(ctx context.Context, dev Device, cmd string) ([]byte, error) {
	if d, ok := dev.(sizedExec); ok {
		return d.ExecSized(ctx, cmd, RawFrameSize)
	}
	return dev.Exec(ctx, cmd)
}

// dumpFile is where the fallback dump is written on the device.
const dumpFile = "/data/local/tmp/fixthis-dump.xml"

// errIdleState is uiautomator's complaint when the app never goes idle (an endless
// animation); a second try usually succeeds.
var errIdleState = errors.New("uiautomator could not get idle state")

// DumpTree reads the UI tree with `uiautomator dump /dev/tty` over exec:, and when
// that yields no XML, with a dump to a file on the device that is read with `cat`
// and removed. Each way is retried once when uiautomator reports it could not get
// the idle state.
func DumpTree(ctx context.Context, dev Device) (*Hierarchy, error) {
	h, ttyErr := retryIdle(ctx, func() (*Hierarchy, error) {
		out, err := dev.Exec(ctx, "uiautomator dump /dev/tty")
		if err != nil {
			return nil, err
		}
		return parseDumpOutput(out)
	})
	if ttyErr == nil {
		return h, nil
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("uiautomator dump: %w", ctx.Err())
	}
	h, fileErr := retryIdle(ctx, func() (*Hierarchy, error) {
		res, err := dev.Shell(ctx, adb.Command("uiautomator", "dump", dumpFile))
		if err != nil {
			return nil, err
		}
		if msg := string(append(res.Stdout, res.Stderr...)); strings.Contains(msg, "ERROR: could not get idle state") {
			return nil, errIdleState
		} else if res.ExitCode != 0 {
			return nil, fmt.Errorf("exit %d: %s", res.ExitCode, strings.TrimSpace(msg))
		}
		defer dev.Shell(context.WithoutCancel(ctx), adb.Command("rm", "-f", dumpFile)) //nolint:errcheck // best-effort cleanup
		out, err := dev.Exec(ctx, adb.Command("cat", dumpFile))
		if err != nil {
			return nil, err
		}
		return parseDumpOutput(out)
	})
	if fileErr != nil {
		return nil, fmt.Errorf("uiautomator dump /dev/tty: %v; dump to file: %w", ttyErr, fileErr)
	}
	return h, nil
}

func retryIdle(ctx context.Context, f func() (*Hierarchy, error)) (*Hierarchy, error) {
	h, err := f()
	if errors.Is(err, errIdleState) && ctx.Err() == nil {
		h, err = f()
	}
	return h, err
}

// parseDumpOutput finds the XML in what uiautomator printed: warnings may precede it
// and the "dumped to" line follows it.
func parseDumpOutput(out []byte) (*Hierarchy, error) {
	start := bytes.Index(out, []byte("<?xml"))
	if start < 0 {
		start = bytes.Index(out, []byte("<hierarchy"))
	}
	if start < 0 {
		if bytes.Contains(out, []byte("could not get idle state")) {
			return nil, errIdleState
		}
		return nil, fmt.Errorf("no XML in output %q", truncate(bytes.TrimSpace(out), 120))
	}
	return ParseHierarchy(out[start:])
}

// ReadScreenState reads the foreground activity, rotation, density, power, keyguard,
// window mode, system UI and the window list from dumpsys and wm, all commands at once. Commands that
// fail leave their fields unknown; an error is returned only when neither the
// activity nor the window manager answered.
func ReadScreenState(ctx context.Context, dev Device) (ScreenState, error) {
	cmds := []string{
		"dumpsys activity activities",
		"dumpsys window",
		"dumpsys power",
		"wm density",
		"dumpsys input_method",
	}
	outs := make([]string, len(cmds))
	errs := make([]error, len(cmds))
	var wg sync.WaitGroup
	for i, cmd := range cmds {
		wg.Go(func() {
			res, err := dev.Shell(ctx, cmd)
			switch {
			case err != nil:
				errs[i] = fmt.Errorf("%s: %w", cmd, err)
			case res.ExitCode != 0:
				errs[i] = fmt.Errorf("%s: exit %d: %s", cmd, res.ExitCode, strings.TrimSpace(string(res.Stderr)))
			}
			outs[i] = string(res.Stdout)
		})
	}
	wg.Wait()
	if errs[0] != nil && errs[1] != nil {
		return ScreenState{}, fmt.Errorf("read screen state: %w", errors.Join(errs[0], errs[1]))
	}
	imeShown := ParseIMEShown(outs[4])
	s := mergeState(ParseActivities(outs[0]), ParseWindow(outs[1]), ParsePower(outs[2]),
		ParseDensity(outs[3]), imeShown)
	windows := ParseWindowList(outs[1])
	if windows.Unread > 0 {
		slog.Debug("dumpsys window: lines outside any window record", "lines", windows.Unread)
	}
	if len(windows.Unreadable) > 0 {
		slog.Debug("dumpsys window: window records with neither type nor frame", "windows", windows.Unreadable)
	}
	applyWindows(&s, windows, imeShown)
	return s, nil
}

// Timings of one capture.
type Timings struct {
	Frame time.Duration `json:"frame"`
	Tree  time.Duration `json:"tree"`
	State time.Duration `json:"state"`
	Total time.Duration `json:"total"`
}

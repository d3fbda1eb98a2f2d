package webview

import (
	"context"
	"fmt"
	"net"
	"strings"

	"fixthis/adb"
)

// ProcNetUnixCommand lists the device's Unix sockets, abstract ones as `@name`.
const ProcNetUnixCommand = "cat /proc/net/unix"

// Socket finds the DevTools socket of process pid in /proc/net/unix output
// (a path column `@webview_devtools_remote_<pid>`), "" when its WebView is
// not debuggable or not running.
func Socket(procNetUnix string, pid int) string {
	want := fmt.Sprintf("@webview_devtools_remote_%d", pid)
	for line := range strings.Lines(procNetUnix) {
		f := strings.Fields(line)
		if len(f) >= 8 && f[len(f)-1] == want {
			return want[1:]
		}
	}
	return ""
}

// Forwarder is the part of the adb client a device dialer needs.
type Forwarder interface {
	ForwardLocalAbstract(ctx context.Context, serial, name string) (int, error)
	RemoveForward(ctx context.Context, serial, local string) error
}

// AdbDialer forwards a local port to the device's socket once and dials it for
// every connection; stop removes the forward.
func AdbDialer(ctx context.Context, c Forwarder, serial, socket string) (dial Dialer, stop func(), err error) {
	if err := adb.CheckSerial(serial); err != nil {
		return nil, nil, err
	}
	port, err := c.ForwardLocalAbstract(ctx, serial, socket)
	if err != nil {
		return nil, nil, fmt.Errorf("devtools: forward to %s: %w", socket, err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	dial = func(ctx context.Context) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "tcp", addr)
	}
	stop = func() { _ = c.RemoveForward(context.Background(), serial, fmt.Sprintf("tcp:%d", port)) }
	return dial, stop, nil
}

// The app's WebView DevTools socket, served by a real Chromium.
package android

import (
	"context"
	"fmt"
	"io"
	"net"
	"sort"
	"strings"
	"sync"
)

// webViewSocket is the abstract socket a debuggable WebView serves DevTools
// on in its app's process: "webview_devtools_remote_<pid>" (Chromium's
// android_webview/browser/aw_devtools_server.cc names it so).
func webViewSocket(pid int) string { return fmt.Sprintf("webview_devtools_remote_%d", pid) }

// ServeWebViewDevTools makes the running app's WebView debuggable: its DevTools
// socket appears in /proc/net/unix and every connection to it is carried to
// addr, a Chromium's remote debugging port, so what answers is Chromium's own
// DevTools. It returns the socket's name.
func (d *Device) ServeWebViewDevTools(addr string) (string, error) {
	pid := d.appPid()
	if pid == 0 {
		return "", ErrAppNotRunning
	}
	name := webViewSocket(pid)
	d.mu.Lock()
	d.socketDefs[name] = "devtools"
	d.devtoolsAddr = addr
	d.mu.Unlock()
	return name, d.writeProcNetUnix()
}

// devtoolsService carries one connection to the Chromium behind the socket,
// both ways, until either side closes.
func (d *Device) devtoolsService(ctx context.Context, s io.ReadWriter) error {
	d.mu.Lock()
	addr := d.devtoolsAddr
	d.mu.Unlock()
	var dialer net.Dialer
	conn, err := dialer.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil // connect() refused: the stream just closes
	}
	defer conn.Close()
	var once sync.Once
	done := make(chan struct{})
	stop := func() { once.Do(func() { close(done) }) }
	go func() { _, _ = io.Copy(conn, s); stop() }()
	go func() { _, _ = io.Copy(s, conn); stop() }()
	select {
	case <-done:
	case <-ctx.Done():
	}
	return nil
}

// writeProcNetUnix writes /proc/net/unix with the abstract sockets the phone
// serves, in the kernel's layout (net/unix/af_unix.c, unix_seq_show): the
// kernel pointer prints as zeros to an unprivileged reader, the path of an
// abstract socket starts with '@'.
func (d *Device) writeProcNetUnix() error {
	d.mu.Lock()
	names := make([]string, 0, len(d.socketDefs))
	for n := range d.socketDefs {
		names = append(names, n)
	}
	d.mu.Unlock()
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("Num       RefCount Protocol Flags    Type St Inode Path\n")
	for i, n := range names {
		fmt.Fprintf(&b, "0000000000000000: 00000002 00000000 00010000 0001 01 %5d @%s\n", 48210+i*7, n)
	}
	if err := d.fs.MkdirAll("/proc/net", 0o555); err != nil {
		return err
	}
	return d.fs.WriteFile("/proc/net/unix", []byte(b.String()), 0o444)
}

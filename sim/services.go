package sim

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"fixthis/adb"
)

// service runs one opened stream to completion.
type service func(ctx context.Context, s *stream) error

// resolveService maps an OPEN's service name to its handler; an error refuses the
// open (the host then tells its client the device closed the stream).
func (d *Device) resolveService(name string) (service, error) {
	switch {
	case strings.HasPrefix(name, "shell"):
		head, cmd, ok := strings.Cut(name, ":")
		if !ok {
			return nil, fmt.Errorf("malformed shell service %q", name)
		}
		opts := strings.Split(head, ",")
		if opts[0] != "shell" {
			return nil, fmt.Errorf("unknown service %q", name)
		}
		v2, pty := false, cmd == ""
		for _, o := range opts[1:] {
			switch {
			case o == "v2":
				v2 = true
			case o == "raw":
				pty = false
			case o == "pty":
				pty = true
			}
		}
		if v2 {
			return func(ctx context.Context, s *stream) error { return d.shellV2(ctx, s, cmd, pty) }, nil
		}
		return func(ctx context.Context, s *stream) error { return d.shellV1(ctx, s, cmd, pty) }, nil
	case strings.HasPrefix(name, "exec:"):
		cmd := strings.TrimPrefix(name, "exec:")
		return func(ctx context.Context, s *stream) error { return d.shellV1(ctx, s, cmd, false) }, nil
	case strings.HasPrefix(name, "abb_exec:"), strings.HasPrefix(name, "abb:"):
		_, rest, _ := strings.Cut(name, ":")
		args := strings.Split(rest, "\x00")
		cmd := "cmd"
		for _, a := range args {
			cmd += " " + adb.Quote(a)
		}
		v2 := strings.HasPrefix(name, "abb:")
		return func(ctx context.Context, s *stream) error {
			if v2 {
				return d.shellV2(ctx, s, cmd, false)
			}
			return d.shellV1(ctx, s, cmd, false)
		}, nil
	case name == "sync:":
		return d.syncService, nil
	case strings.HasPrefix(name, "localabstract:"):
		return d.socketService(strings.TrimPrefix(name, "localabstract:"))
	case strings.HasPrefix(name, "tcp:"):
		return d.socketService(name)
	case strings.HasPrefix(name, "reverse:"):
		req := strings.TrimPrefix(name, "reverse:")
		return func(ctx context.Context, s *stream) error { return d.reverseService(s, req) }, nil
	case strings.HasPrefix(name, "reboot"), strings.HasPrefix(name, "root:"),
		strings.HasPrefix(name, "unroot:"), strings.HasPrefix(name, "remount"),
		strings.HasPrefix(name, "tcpip:"), strings.HasPrefix(name, "usb:"),
		strings.HasPrefix(name, "enable-verity"), strings.HasPrefix(name, "disable-verity"),
		strings.HasPrefix(name, "sideload"), strings.HasPrefix(name, "backup:"),
		strings.HasPrefix(name, "restore:"):
		verb, _, _ := strings.Cut(name, ":")
		msg := fmt.Sprintf("%s is not supported by the simulated device", verb)
		return func(ctx context.Context, s *stream) error {
			_, err := fmt.Fprintf(s, "FAIL%04x%s", len(msg), msg)
			return err
		}, nil
	}
	return nil, fmt.Errorf("unknown service %q", name)
}

// shellV1 is `shell:` and `exec:`: stdout and stderr merged, no exit status, host data
// is stdin until the host closes the stream.
func (d *Device) shellV1(ctx context.Context, s *stream, cmd string, pty bool) error {
	in := newBufPipe()
	go func() {
		_, _ = io.Copy(in, s)
		in.CloseWrite()
	}()
	var mu sync.Mutex
	var out io.Writer = syncWriter{mu: &mu, w: s}
	if pty {
		out = crlfWriter{out}
	}
	if cmd == "" {
		d.interactive(ctx, in, out, out, pty)
		return nil
	}
	d.runScript(ctx, cmd, in, out, out)
	return nil
}

// shellV2 speaks the shell protocol: separate stdout/stderr packets and an exit
// packet carrying the status.
func (d *Device) shellV2(ctx context.Context, s *stream, cmd string, pty bool) error {
	in := newBufPipe()
	go func() {
		defer in.CloseWrite()
		r := bufio.NewReader(s)
		for {
			p, err := readShellPacket(r)
			if err != nil {
				return
			}
			switch p.ID {
			case shellStdin:
				_, _ = in.Write(p.Data)
			case shellCloseStdin:
				return
			case shellWindowSize:
				// No terminal to resize.
			}
		}
	}()
	var mu sync.Mutex
	max := int(s.maxData) - 5
	var stdout io.Writer = shellPacketWriter{mu: &mu, w: s, id: shellStdout, max: max}
	var stderr io.Writer = shellPacketWriter{mu: &mu, w: s, id: shellStderr, max: max}
	if pty {
		// A pty merges stderr into stdout and turns \n into \r\n.
		stdout = crlfWriter{stdout}
		stderr = stdout
	}
	var status int
	if cmd == "" {
		d.interactive(ctx, in, stdout, stderr, pty)
	} else {
		status = d.runScript(ctx, cmd, in, stdout, stderr)
	}
	mu.Lock()
	_, err := s.Write(encodeShellPacket(shellExit, []byte{byte(status)}))
	mu.Unlock()
	return err
}

// interactive is `adb shell` without a command: a prompt, one command per line.
func (d *Device) interactive(ctx context.Context, in io.Reader, stdout, stderr io.Writer, echo bool) {
	prompt := d.profile.Name + ":/ $ "
	r := bufio.NewReader(in)
	for ctx.Err() == nil {
		fmt.Fprint(stdout, prompt)
		line, err := r.ReadString('\n')
		line = strings.TrimRight(line, "\r\n")
		if echo && line != "" {
			fmt.Fprintln(stdout, line)
		}
		if line != "" {
			var exitStatus bool
			pls, perr := parseShell(line)
			if perr == nil && len(pls) == 1 && len(pls[0].cmds) == 1 && pls[0].cmds[0].args[0] == "exit" {
				exitStatus = true
			}
			d.runScript(ctx, line, bytes.NewReader(nil), stdout, stderr)
			if exitStatus {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// crlfWriter is the output side of a pty: \n becomes \r\n.
type crlfWriter struct{ w io.Writer }

func (c crlfWriter) Write(p []byte) (int, error) {
	if _, err := c.w.Write(bytes.ReplaceAll(p, []byte("\n"), []byte("\r\n"))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// reverseService handles `adb reverse`: forwards from the device back to the host
// are recorded (the sim has no apps that would dial them) and listed.
func (d *Device) reverseService(s *stream, req string) error {
	okay := func(extra string) error {
		if _, err := io.WriteString(s, "OKAY"); err != nil {
			return err
		}
		if extra != "" {
			_, err := fmt.Fprintf(s, "%04x%s", len(extra), extra)
			return err
		}
		return nil
	}
	fail := func(msg string) error {
		_, err := fmt.Fprintf(s, "FAIL%04x%s", len(msg), msg)
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case req == "list-forward":
		var b strings.Builder
		for _, r := range d.reverses {
			fmt.Fprintf(&b, "host-1 %s %s\n", r.Remote, r.Local)
		}
		_, err := fmt.Fprintf(s, "%04x%s", b.Len(), b.String())
		return err
	case req == "killforward-all":
		d.reverses = nil
		return okay("")
	case strings.HasPrefix(req, "killforward:"):
		remote := strings.TrimPrefix(req, "killforward:")
		for i, r := range d.reverses {
			if r.Remote == remote {
				d.reverses = append(d.reverses[:i], d.reverses[i+1:]...)
				return okay("")
			}
		}
		return fail(fmt.Sprintf("listener '%s' not found", remote))
	case strings.HasPrefix(req, "forward:"):
		spec := strings.TrimPrefix(req, "forward:")
		norebind := strings.HasPrefix(spec, "norebind:")
		spec = strings.TrimPrefix(spec, "norebind:")
		remote, local, ok := strings.Cut(spec, ";")
		if !ok || remote == "" || local == "" {
			return fail("bad forward: " + spec)
		}
		resolved := ""
		if remote == "tcp:0" {
			// The device picks a port, as adbd would from its ephemeral range.
			remote = "tcp:" + strconv.Itoa(38000+len(d.reverses))
			resolved = strings.TrimPrefix(remote, "tcp:")
		}
		for i, r := range d.reverses {
			if r.Remote == remote {
				if norebind {
					return fail("cannot rebind existing socket")
				}
				d.reverses[i].Local = local
				return okay(resolved)
			}
		}
		d.reverses = append(d.reverses, reverseRule{Remote: remote, Local: local})
		return okay(resolved)
	}
	return fail("unknown reverse request: " + req)
}

var errNoSocket = errors.New("connection refused")

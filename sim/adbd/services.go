// The services a host can open on the device by name (OPEN's payload): the shell
// in its forms, sync, sockets, reverse forwards, and a refusal for the services of
// a real device's own (reboot, root, remount, ...).
package adbd

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"fixthis/internal/shellquote"
)

// service runs one opened stream to completion.
type service func(ctx context.Context, s *stream) error

// resolveService maps an OPEN's service name to its handler; an error refuses the
// open (the host then tells its client the device closed the stream).
func (srv *Server) resolveService(name string) (service, error) {
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
			return func(ctx context.Context, s *stream) error { return srv.shellV2(ctx, s, cmd, pty) }, nil
		}
		return func(ctx context.Context, s *stream) error { return srv.shellV1(ctx, s, cmd, pty) }, nil
	case strings.HasPrefix(name, "exec:"):
		cmd := strings.TrimPrefix(name, "exec:")
		return func(ctx context.Context, s *stream) error { return srv.shellV1(ctx, s, cmd, false) }, nil
	case strings.HasPrefix(name, "abb_exec:"), strings.HasPrefix(name, "abb:"):
		_, rest, _ := strings.Cut(name, ":")
		args := strings.Split(rest, "\x00")
		cmd := "cmd"
		for _, a := range args {
			cmd += " " + shellquote.Quote(a)
		}
		v2 := strings.HasPrefix(name, "abb:")
		return func(ctx context.Context, s *stream) error {
			if v2 {
				return srv.shellV2(ctx, s, cmd, false)
			}
			return srv.shellV1(ctx, s, cmd, false)
		}, nil
	case name == "sync:":
		return srv.syncService, nil
	case strings.HasPrefix(name, "localabstract:"):
		return srv.socketService(strings.TrimPrefix(name, "localabstract:"))
	case strings.HasPrefix(name, "tcp:"):
		return srv.socketService(name)
	case strings.HasPrefix(name, "reverse:"):
		req := strings.TrimPrefix(name, "reverse:")
		return func(ctx context.Context, s *stream) error { return srv.reverseService(s, req) }, nil
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

// socketService connects a stream to a socket the device serves.
func (srv *Server) socketService(name string) (service, error) {
	h, err := srv.cfg.Services.Socket(name)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, s *stream) error { return h(ctx, s) }, nil
}

// reverseService handles `adb reverse`: forwards from the device back to the host
// are recorded (the sim has no apps that would dial them) and listed.
func (srv *Server) reverseService(s *stream, req string) error {
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
	srv.mu.Lock()
	defer srv.mu.Unlock()
	switch {
	case req == "list-forward":
		var b strings.Builder
		for _, r := range srv.reverses {
			fmt.Fprintf(&b, "host-1 %s %s\n", r.Remote, r.Local)
		}
		_, err := fmt.Fprintf(s, "%04x%s", b.Len(), b.String())
		return err
	case req == "killforward-all":
		srv.reverses = nil
		return okay("")
	case strings.HasPrefix(req, "killforward:"):
		remote := strings.TrimPrefix(req, "killforward:")
		for i, r := range srv.reverses {
			if r.Remote == remote {
				srv.reverses = append(srv.reverses[:i], srv.reverses[i+1:]...)
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
			remote = "tcp:" + strconv.Itoa(38000+len(srv.reverses))
			resolved = strings.TrimPrefix(remote, "tcp:")
		}
		for i, r := range srv.reverses {
			if r.Remote == remote {
				if norebind {
					return fail("cannot rebind existing socket")
				}
				srv.reverses[i].Local = local
				return okay(resolved)
			}
		}
		srv.reverses = append(srv.reverses, reverseRule{Remote: remote, Local: local})
		return okay(resolved)
	}
	return fail("unknown reverse request: " + req)
}

package sim

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fixthis/internal/sidekick"
	"fmt"
	"io"
)

// socketService connects a `localabstract:NAME` or `tcp:PORT` stream to a socket the
// phone serves; an unknown socket refuses the open, like connect() getting ECONNREFUSED.
func (d *Device) socketService(name string) (service, error) {
	d.mu.Lock()
	proto, ok := d.socketDefs[name]
	d.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("socket %q: %w", name, errNoSocket)
	}
	switch proto {
	case "echo":
		return func(ctx context.Context, s *stream) error {
			_, err := io.Copy(s, s)
			if errors.Is(err, errStreamClosed) {
				return nil
			}
			return err
		}, nil
	case "sidekick":
		return d.sidekickService, nil
	}
	return nil, fmt.Errorf("socket %q has unknown protocol %q", name, proto)
}

// sidekickSession is the JSON the app writes to files/fixthis/session.json.
func (d *Device) sidekickSession() []byte {
	b, _ := json.Marshal(sidekick.Session{Protocol: sidekick.Protocol, Socket: d.sidekickSocket(), Token: d.token})
	return append(b, '\n')
}

// sidekickService answers the FixThis sidekick protocol the demo app carries.
func (d *Device) sidekickService(ctx context.Context, s *stream) error {
	r := bufio.NewReader(s)
	for ctx.Err() == nil {
		frame, err := sidekick.ReadFrame(r)
		if err != nil {
			if errors.Is(err, errStreamClosed) || errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		resp := d.sidekickHandle(frame)
		out, err := json.Marshal(resp)
		if err != nil {
			return fmt.Errorf("encode sidekick response: %w", err)
		}
		if err := sidekick.WriteFrame(s, out); err != nil {
			return err
		}
	}
	return nil
}

func (d *Device) sidekickHandle(frame []byte) sidekick.Response {
	var req sidekick.Request
	if err := json.Unmarshal(frame, &req); err != nil {
		return sidekickFail(0, "bad_request", "request is not JSON: "+err.Error())
	}
	if req.Token != d.token {
		return sidekickFail(req.ID, "unauthorized", "token does not match "+sidekick.SessionPath)
	}
	pkg := d.profile.App.Package
	switch req.Method {
	case "hello":
		return sidekickOK(req.ID, map[string]string{"protocol": sidekick.Protocol, "package": pkg})
	case sidekick.MethodInspectCurrentScreen:
		st := d.phone.State()
		if st.ForegroundPackage != pkg || !st.ScreenOn || st.Locked {
			return sidekickFail(req.ID, "not_foreground", pkg+" is not the resumed app")
		}
		w, h := d.screenSize(st)
		return sidekickOK(req.ID, sidekick.Screen{
			Protocol: sidekick.Protocol,
			Package:  pkg,
			Activity: st.Activity,
			Width:    w,
			Height:   h,
			Nodes:    d.phone.SidekickNodes(),
		})
	}
	return sidekickFail(req.ID, "unknown_method", fmt.Sprintf("unknown method %q", req.Method))
}

func sidekickOK(id int64, result any) sidekick.Response {
	raw, err := json.Marshal(result)
	if err != nil {
		return sidekickFail(id, "internal", err.Error())
	}
	return sidekick.Response{ID: id, Result: raw}
}

func sidekickFail(id int64, code, msg string) sidekick.Response {
	return sidekick.Response{ID: id, Error: &sidekick.Error{Code: code, Message: msg}}
}

// screenSize is the display size in the current rotation.
func (d *Device) screenSize(st PhoneState) (int, int) {
	if st.Rotation%2 == 1 {
		return d.profile.Height, d.profile.Width
	}
	return d.profile.Width, d.profile.Height
}

package sim

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"fixthis/capture"
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

// sidekickProtocol is the version the demo app's sidekick speaks: the one FixThis expects.
const sidekickProtocol = capture.SidekickProtocol

// sidekickSession is the JSON the app writes to files/fixthis/session.json.
func (d *Device) sidekickSession() []byte {
	b, _ := json.Marshal(map[string]string{
		"protocol": sidekickProtocol,
		"socket":   d.sidekickSocket(),
		"token":    d.token,
	})
	return append(b, '\n')
}

type sidekickRequest struct {
	ID     json.RawMessage `json:"id"`
	Token  string          `json:"token"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

type sidekickError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

type sidekickResponse struct {
	ID     json.RawMessage `json:"id"`
	Result any             `json:"result,omitempty"`
	Error  *sidekickError  `json:"error,omitempty"`
}

// sidekickService answers the FixThis sidekick protocol the demo app carries.
func (d *Device) sidekickService(ctx context.Context, s *stream) error {
	r := bufio.NewReader(s)
	for ctx.Err() == nil {
		frame, err := capture.ReadSidekickFrame(r)
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
		if err := capture.WriteSidekickFrame(s, out); err != nil {
			return err
		}
	}
	return nil
}

func (d *Device) sidekickHandle(frame []byte) sidekickResponse {
	var req sidekickRequest
	if err := json.Unmarshal(frame, &req); err != nil {
		return sidekickResponse{ID: json.RawMessage("null"), Error: &sidekickError{Code: "bad_request", Message: "request is not JSON: " + err.Error()}}
	}
	if req.ID == nil {
		req.ID = json.RawMessage("null")
	}
	if req.Token != d.token {
		return sidekickResponse{ID: req.ID, Error: &sidekickError{Code: "unauthorized", Message: "token does not match files/fixthis/session.json"}}
	}
	pkg := d.profile.App.Package
	switch req.Method {
	case "hello":
		return sidekickResponse{ID: req.ID, Result: map[string]any{"protocol": sidekickProtocol, "package": pkg}}
	case "inspectCurrentScreen":
		st := d.phone.State()
		if st.ForegroundPackage != pkg || !st.ScreenOn || st.Locked {
			return sidekickResponse{ID: req.ID, Error: &sidekickError{Code: "not_foreground", Message: pkg + " is not the resumed app"}}
		}
		w, h := d.screenSize(st)
		return sidekickResponse{ID: req.ID, Result: map[string]any{
			"protocol": sidekickProtocol,
			"package":  pkg,
			"activity": st.Activity,
			"width":    w,
			"height":   h,
			"nodes":    d.phone.SidekickNodes(),
		}}
	}
	return sidekickResponse{ID: req.ID, Error: &sidekickError{Code: "unknown_method", Message: fmt.Sprintf("unknown method %q", req.Method)}}
}

// screenSize is the display size in the current rotation.
func (d *Device) screenSize(st PhoneState) (int, int) {
	if st.Rotation%2 == 1 {
		return d.profile.Height, d.profile.Width
	}
	return d.profile.Width, d.profile.Height
}

// The sockets the phone serves (echo, and the app's sidekick bridge with its
// session file and request loop).
package android

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"fixthis/internal/sidekick"
	"fixthis/sim/adbd"
)

var errNoSocket = errors.New("connection refused")

// Socket connects a `localabstract:NAME` or `tcp:PORT` stream to a socket the
// phone serves; an unknown socket refuses the open, like connect() getting
// ECONNREFUSED (adbd.Services).
func (d *Device) Socket(name string) (adbd.Handler, error) {
	d.mu.Lock()
	proto, ok := d.socketDefs[name]
	d.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("socket %q: %w", name, errNoSocket)
	}
	switch proto {
	case "echo":
		return func(ctx context.Context, s io.ReadWriter) error {
			_, err := io.Copy(s, s)
			if errors.Is(err, adbd.ErrStreamClosed) {
				return nil
			}
			return err
		}, nil
	case "sidekick":
		return d.sidekickService, nil
	case "devtools":
		return d.devtoolsService, nil
	}
	return nil, fmt.Errorf("socket %q has unknown protocol %q", name, proto)
}

// sidekickSession is files/fixthis/session.json as the sidekick's SessionTokenStore
// writes it (pretty-printed, four spaces, as kotlinx.serialization does), naming the
// socket the bridge bound (BridgeRuntime.kt:65-71 at upstream v1.5.0).
func (d *Device) sidekickSession() []byte {
	d.mu.Lock()
	now, token := d.createdAt.UnixMilli(), d.token
	d.mu.Unlock()
	b, _ := json.MarshalIndent(sidekick.Session{
		SchemaVersion: "1.0", PackageName: d.profile.App.Package,
		SocketName: d.sidekickBound, SocketAddress: "localabstract:" + d.sidekickBound,
		Token: token, SidekickVersion: simSidekickVersion, BridgeProtocolVersion: sidekick.Version,
		CreatedAtEpochMillis: now, ProcessStartEpochMillis: now,
	}, "", "    ")
	return b
}

// simSidekickVersion is what the demo app's sidekick reports as its own version.
const simSidekickVersion = "0.1.0"

// sidekickService answers the FixThis bridge on one connection, one framed request
// after another, as BridgeServer.handleClient does. The socket lives in the app's
// process: with the app not running nobody answers, and a connection ends when the
// process it was made to goes away.
func (d *Device) sidekickService(ctx context.Context, s io.ReadWriter) error {
	pid := d.appPid()
	if pid == 0 {
		return nil
	}
	r := bufio.NewReader(s)
	for ctx.Err() == nil {
		frame, err := sidekick.ReadFrame(r)
		if err != nil {
			if errors.Is(err, adbd.ErrStreamClosed) || errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if d.appPid() != pid {
			return nil
		}
		out, err := json.MarshalIndent(d.sidekickHandle(frame), "", "    ")
		if err != nil {
			return fmt.Errorf("encode sidekick response: %w", err)
		}
		if err := sidekick.WriteFrame(s, out); err != nil {
			if d.appPid() == pid {
				// BridgeServer.kt:143-144 writes the answer outside any catch, in a
				// coroutine without an exception handler: the IOException of a
				// socket the host closed kills the app.
				_ = d.CrashApp(bridgeWriteCrash)
			}
			return nil
		}
	}
	return nil
}

// bridgeWriteCrash is the uncaught exception of the sidekick's write into a socket
// the host closed while it worked on the request.
var bridgeWriteCrash = Crash{
	Exception: "java.io.IOException: Broken pipe",
	Frames: []string{
		"android.net.LocalSocketImpl$SocketOutputStream.write(LocalSocketImpl.java:150)",
		"io.github.beyondwin.fixthis.compose.sidekick.bridge.BridgeProtocol.writeFrame(BridgeProtocol.kt:26)",
		"io.github.beyondwin.fixthis.compose.sidekick.bridge.BridgeServer.handleClient(BridgeServer.kt:144)",
		"io.github.beyondwin.fixthis.compose.sidekick.bridge.BridgeServer$acceptLoop$2.invokeSuspend(BridgeServer.kt:126)",
		"kotlinx.coroutines.DispatchedTask.run(DispatchedTask.kt:108)",
		"kotlinx.coroutines.internal.LimitedDispatcher$Worker.run(LimitedDispatcher.kt:115)",
		"kotlinx.coroutines.scheduling.CoroutineScheduler$Worker.run(CoroutineScheduler.kt:793)",
	},
}

// sidekickHandle answers one request the way BridgeServer.handleRequest does: a
// request that is not the envelope (a numeric id, no method) is BAD_REQUEST without
// an id, a wrong token UNAUTHORIZED, an unknown method UNKNOWN_METHOD.
func (d *Device) sidekickHandle(frame []byte) sidekick.Response {
	var req struct {
		ID     *string         `json:"id"`
		Token  *string         `json:"token"`
		Method *string         `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(frame, &req); err != nil || req.Method == nil || !isJSONObjectOrAbsent(req.Params) {
		return sidekickFail(nil, sidekick.CodeBadRequest, "Invalid bridge request JSON")
	}
	d.mu.Lock()
	token := d.token
	d.mu.Unlock()
	if req.Token == nil || *req.Token != token {
		return sidekickFail(req.ID, sidekick.CodeUnauthorized, "Missing or mismatched FixThis bridge token")
	}
	switch *req.Method {
	case sidekick.MethodHeartbeat:
		d.noteHeartbeat()
		return sidekickOK(req.ID, sidekick.HeartbeatResult{Connected: true})
	case sidekick.MethodStatus:
		return sidekickOK(req.ID, d.sidekickStatus())
	case sidekick.MethodInspectCurrentScreen:
		return sidekickOK(req.ID, d.sidekickInspect())
	case sidekick.MethodReadSourceIndex:
		return sidekickOK(req.ID, d.sidekickSourceIndex())
	}
	if result, err, ok := d.sidekickCall(*req.Method, req.Params); ok {
		if err != nil {
			return sidekickFail(req.ID, sidekick.CodeMethodFailed, err.Error())
		}
		return sidekickOK(req.ID, result)
	}
	return sidekickFail(req.ID, sidekick.CodeUnknownMethod, "Unknown bridge method: "+*req.Method)
}

func isJSONObjectOrAbsent(raw json.RawMessage) bool {
	if len(raw) == 0 {
		return true
	}
	var m map[string]json.RawMessage
	return json.Unmarshal(raw, &m) == nil && m != nil
}

func sidekickOK(id *string, result any) sidekick.Response {
	raw, err := json.Marshal(result)
	if err != nil {
		return sidekickFail(id, sidekick.CodeMethodFailed, err.Error())
	}
	return sidekick.Response{ID: id, OK: true, Result: raw}
}

func sidekickFail(id *string, code, msg string) sidekick.Response {
	return sidekick.Response{ID: id, Error: &sidekick.Error{Code: code, Message: msg}}
}

// screenSize is the display size (after `wm size`) in the current rotation.
func (d *Device) screenSize(st PhoneState) (int, int) {
	w, h := d.displaySize()
	if st.Rotation%2 == 1 {
		return h, w
	}
	return w, h
}

// Package sidekick is the FixThis sidekick protocol: the wire types and the framing
// that a debuggable app's sidekick and FixThis speak over the app's abstract socket
// (localabstract:fixthis_<pkg>, forwarded to a local TCP port). Each message is a
// 4-byte big-endian length and a JSON body. The host client (package capture) and the
// simulated device's app (adb/sim) both use this package, so the two ends cannot drift.
package sidekick

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Protocol is the protocol version both ends speak; any 1.x session is accepted.
const Protocol = "1.3"

// MethodInspectCurrentScreen asks for the UI tree of the screen in front.
const MethodInspectCurrentScreen = "inspectCurrentScreen"

// SessionPath is the session file inside the app's data directory, read with run-as.
const SessionPath = "files/fixthis/session.json"

// ErrNoSidekick means the app does not carry the sidekick (or it is not running).
var ErrNoSidekick = errors.New("no FixThis sidekick in the app")

// MaxFrame bounds one message; a real screen is well under a megabyte.
const MaxFrame = 32 << 20

// Session is the session file: which socket to dial and the token to present.
type Session struct {
	Protocol string `json:"protocol"`
	Socket   string `json:"socket"`
	Token    string `json:"token"`
}

// ParseSession validates a session file: protocol 1.x, an abstract socket named
// fixthis_<pkg>, and a token.
func ParseSession(data []byte) (Session, error) {
	var s Session
	if err := json.Unmarshal(data, &s); err != nil {
		return s, fmt.Errorf("%w: session.json: %v", ErrNoSidekick, err)
	}
	switch {
	case !strings.HasPrefix(s.Protocol, "1."):
		return s, fmt.Errorf("%w: unsupported protocol %q (want %s)", ErrNoSidekick, s.Protocol, Protocol)
	case !strings.HasPrefix(s.Socket, "fixthis_"):
		return s, fmt.Errorf("%w: unexpected socket %q", ErrNoSidekick, s.Socket)
	case s.Token == "":
		return s, fmt.Errorf("%w: session.json has no token", ErrNoSidekick)
	}
	return s, nil
}

// Request is one call.
type Request struct {
	ID     int64           `json:"id"`
	Token  string          `json:"token"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
}

// Response answers the request with the same ID: a result or an error.
type Response struct {
	ID     int64           `json:"id"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *Error          `json:"error,omitempty"`
}

// Error is an error answer.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return "sidekick: " + e.Code + ": " + e.Message }

// Screen is the answer to inspectCurrentScreen.
type Screen struct {
	Protocol string `json:"protocol"`
	Package  string `json:"package"`
	Activity string `json:"activity"`
	Width    int    `json:"width"`
	Height   int    `json:"height"`
	Nodes    []Node `json:"nodes"`
}

// WriteFrame writes one message: a 4-byte big-endian length, then the JSON body.
func WriteFrame(w io.Writer, body []byte) error {
	buf := make([]byte, 4+len(body))
	binary.BigEndian.PutUint32(buf, uint32(len(body)))
	copy(buf[4:], body)
	_, err := w.Write(buf)
	return err
}

// ReadFrame reads one message written by WriteFrame, refusing frames over MaxFrame.
func ReadFrame(r io.Reader) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n > MaxFrame {
		return nil, fmt.Errorf("frame of %d bytes exceeds %d", n, MaxFrame)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, err
	}
	return body, nil
}

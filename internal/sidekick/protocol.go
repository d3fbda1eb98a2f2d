// Package sidekick is the FixThis bridge protocol (version 1.3) spoken by the
// fixthis-compose-sidekick library inside a Compose debug build: the session file the
// app writes, the request and response envelopes, the error codes, the framing, and
// the models of its answers (models.go). The host client (package capture) and the
// simulated device's demo app (sim/android) both use these types; the golden files in
// testdata, written from the upstream Kotlin models, keep both ends honest.
package sidekick

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// Version is the bridge protocol version the sidekick reports (BridgeProtocol.VERSION).
const Version = "1.3"

// Methods of the bridge that FixThis calls.
const (
	// MethodHeartbeat marks the host connected: the app's status pill shows it for
	// ConnectedWindow after the last heartbeat.
	MethodHeartbeat = "heartbeat"
	// MethodStatus reports the activity, the socket name and the capabilities.
	MethodStatus = "status"
	// MethodInspectCurrentScreen returns the Compose semantics of the resumed activity.
	MethodInspectCurrentScreen = "inspectCurrentScreen"
	// MethodReadSourceIndex returns the source index the Gradle plugin put in the APK.
	MethodReadSourceIndex = "readSourceIndex"
	// MethodCaptureScreenSnapshot inspects the screen and saves a PNG of the
	// activity's window in the app's cache, for readScreenshot.
	MethodCaptureScreenSnapshot = "captureScreenSnapshot"
	// MethodVerifyUIChange looks for a text on the current screen.
	MethodVerifyUIChange = "verifyUiChange"
	// MethodReadScreenshot returns the last snapshot's PNG, base64.
	MethodReadScreenshot = "readScreenshot"
	// MethodPerformNavigation presses back, taps or swipes in the activity's window.
	MethodPerformNavigation = "performNavigation"
)

// Error codes of the bridge envelope.
const (
	CodeBadRequest    = "BAD_REQUEST"    // the request is not valid JSON of the envelope (answered without an id)
	CodeUnauthorized  = "UNAUTHORIZED"   // the token is missing or not the session's
	CodeUnknownMethod = "UNKNOWN_METHOD" // no handler for the method
	CodeMethodFailed  = "METHOD_FAILED"  // the handler threw
)

// SessionPath is the session file inside the app's data directory, read with run-as.
const SessionPath = "files/fixthis/session.json"

// SocketAttempts is how many abstract socket names the sidekick tries when a stale
// binding holds the first: NAME, NAME-1, NAME-2.
const SocketAttempts = 3

// SocketCandidate is the socket name of attempt (0-based) for the session's name.
func SocketCandidate(base string, attempt int) string {
	if attempt == 0 {
		return base
	}
	return base + "-" + strconv.Itoa(attempt)
}

// ErrNoSidekick means the app does not carry the sidekick (or it is not running).
var ErrNoSidekick = errors.New("no FixThis sidekick in the app")

// MaxFrame bounds one message, as both upstream ends do (16 MiB).
const MaxFrame = 16 << 20

// Session is files/fixthis/session.json as SessionTokenStore writes it.
type Session struct {
	SchemaVersion           string `json:"schemaVersion"`
	PackageName             string `json:"packageName"`
	SocketName              string `json:"socketName"`
	SocketAddress           string `json:"socketAddress"`
	Token                   string `json:"token"`
	SidekickVersion         string `json:"sidekickVersion"`
	BridgeProtocolVersion   string `json:"bridgeProtocolVersion"`
	CreatedAtEpochMillis    int64  `json:"createdAtEpochMillis"`
	ProcessStartEpochMillis int64  `json:"processStartEpochMillis"`
}

// BaseSocketName is the first socket name the sidekick of pkg tries
// (AndroidBridgeEnvironment / SessionTokenStore at upstream v1.5.0: "fixthis_" + the
// package).
func BaseSocketName(pkg string) string { return "fixthis_" + pkg }

// SocketAttempt tells which attempt bound name for pkg (0 for the base name, 1 for
// "-1", 2 for "-2"), or -1 when it is none of the names the sidekick binds.
func SocketAttempt(name, pkg string) int {
	for i := range SocketAttempts {
		if name == SocketCandidate(BaseSocketName(pkg), i) {
			return i
		}
	}
	return -1
}

// ParseSession validates a session file of pkg: bridge protocol exactly Version (as
// upstream's own CLI insists), one of the socket names the sidekick binds
// (fixthis_<pkg>, or its -1 / -2 variant: upstream writes the file after binding,
// with the name it bound, BridgeRuntime.kt:59-71), and a token. Unknown fields are
// ignored, as upstream does.
func ParseSession(data []byte, pkg string) (Session, error) {
	var s Session
	if err := json.Unmarshal(data, &s); err != nil {
		return s, fmt.Errorf("%w: session.json: %v", ErrNoSidekick, err)
	}
	switch {
	case s.BridgeProtocolVersion != Version:
		return s, fmt.Errorf("%w: %w", ErrNoSidekick, VersionError(s.BridgeProtocolVersion))
	case pkg != "" && s.PackageName != pkg:
		return s, fmt.Errorf("%w: session.json is for %q, not %q", ErrNoSidekick, clip(s.PackageName), pkg)
	case SocketAttempt(s.SocketName, s.PackageName) < 0:
		return s, fmt.Errorf("%w: unexpected socket name %q", ErrNoSidekick, clip(s.SocketName))
	case s.Token == "":
		return s, fmt.Errorf("%w: session.json has no token", ErrNoSidekick)
	}
	return s, nil
}

// VersionError says the app's sidekick speaks a bridge protocol FixThis does not:
// it names the version found and the one supported.
func VersionError(found string) error {
	return fmt.Errorf("the app's sidekick speaks bridge protocol %q; FixThis supports exactly %s (update the fixthis-compose-sidekick dependency or FixThis)", clip(found), Version)
}

// clip bounds a value from the app's session file before an error repeats it: the
// file is the app's to write, and a megabyte field must not make a megabyte error.
func clip(v string) string {
	const max = 80
	if len(v) <= max {
		return v
	}
	return v[:max] + "…"
}

// Request is one call. The id is a string the response echoes; params is always an
// object ({} when the method takes none).
type Request struct {
	ID     string          `json:"id"`
	Token  string          `json:"token"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// Response answers a request: ok with a result, or not ok with an error. ID is nil
// when the sidekick could not read the request (BAD_REQUEST).
type Response struct {
	ID     *string         `json:"id,omitempty"`
	OK     bool            `json:"ok"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *Error          `json:"error,omitempty"`
}

// Error is the error of a response that is not ok.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return "sidekick: " + e.Code + ": " + e.Message }

// WriteFrame writes one message: a 4-byte big-endian length, then the UTF-8 JSON body.
func WriteFrame(w io.Writer, body []byte) error {
	if len(body) > MaxFrame {
		return fmt.Errorf("frame of %d bytes exceeds %d", len(body), MaxFrame)
	}
	buf := make([]byte, 4+len(body))
	binary.BigEndian.PutUint32(buf, uint32(len(body)))
	copy(buf[4:], body)
	_, err := w.Write(buf)
	return err
}

// ReadFrame reads one message written by WriteFrame, refusing frames over MaxFrame.
// A connection closed before the first byte gives io.EOF.
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

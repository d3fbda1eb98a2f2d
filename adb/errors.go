package adb

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors callers can test with errors.Is and map to user-facing messages.
var (
	// ErrADBMissing means no adb binary could be found to start a server with.
	ErrADBMissing = errors.New("adb binary not found: install it with `apt-get install adb` (Debian/Ubuntu) or add Android SDK platform-tools to PATH")
	// ErrServerUnavailable means the adb server did not answer on its socket.
	ErrServerUnavailable = errors.New("adb server unavailable")
	// ErrDeviceNotFound means the adb server does not know the serial.
	ErrDeviceNotFound = errors.New("device not found")
	// ErrDeviceGone means the device disappeared or went offline while a command ran.
	ErrDeviceGone = errors.New("device disconnected")
)

// FailError is a FAIL reply from the adb server (or from adbd relayed by it).
type FailError struct {
	Service string // the request that failed, e.g. "host:transport:SERIAL"
	Message string // the text after FAIL, verbatim
}

func (e *FailError) Error() string {
	return fmt.Sprintf("adb %s: %s", e.Service, e.Message)
}

// Is lets errors.Is(err, ErrDeviceNotFound) work for the server's
// "device 'X' not found" replies, which are the only way it reports that.
func (e *FailError) Is(target error) bool {
	if target == ErrDeviceNotFound {
		m := strings.ToLower(e.Message)
		return strings.Contains(m, "not found") && strings.Contains(m, "device")
	}
	return false
}

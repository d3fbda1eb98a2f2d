package adb

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Shell protocol v2 packet ids (adb's shell_protocol.h).
const (
	shellIDStdin      = 0
	shellIDStdout     = 1
	shellIDStderr     = 2
	shellIDExit       = 3
	shellIDCloseStdin = 4
	shellIDWindowSize = 5
)

var errNoExitStatus = errors.New("shell stream ended without an exit status")

// decodeShellV2 reads shell v2 packets — id byte, little-endian uint32
// length, payload — copying stdout and stderr packets to their writers until
// the exit packet, whose one-byte payload is the exit code. Payloads are
// streamed, never allocated from the length, so a corrupt length cannot
// exhaust memory.
func decodeShellV2(r io.Reader, stdout, stderr io.Writer) (int, error) {
	var hdr [5]byte
	for {
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			if errors.Is(err, io.EOF) {
				return -1, errNoExitStatus
			}
			return -1, fmt.Errorf("read shell packet header: %w", err)
		}
		n := int64(binary.LittleEndian.Uint32(hdr[1:]))
		var dst io.Writer
		switch hdr[0] {
		case shellIDStdout:
			dst = stdout
		case shellIDStderr:
			dst = stderr
		case shellIDExit:
			if n < 1 {
				return -1, fmt.Errorf("shell exit packet of %d bytes", n)
			}
			var code [1]byte
			if _, err := io.ReadFull(r, code[:]); err != nil {
				return -1, fmt.Errorf("read shell exit code: %w", noEOF(err))
			}
			if _, err := io.CopyN(io.Discard, r, n-1); err != nil {
				return -1, fmt.Errorf("read shell exit packet: %w", noEOF(err))
			}
			return int(code[0]), nil
		default:
			dst = io.Discard // stdin/close-stdin/window-size only flow host → device
		}
		if _, err := io.CopyN(dst, r, n); err != nil {
			return -1, fmt.Errorf("read %d-byte shell packet (id %d): %w", n, hdr[0], noEOF(err))
		}
	}
}

func noEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// exitMarker ends the output of a v1 shell command with its exit status. It is
// plain ASCII (old toolbox shells have no printf) and survives a pty's \r\n
// translation; the last occurrence wins, so output that echoes it is harmless.
const exitMarker = "FIXTHIS_EXIT:"

// wrapExitMarker makes a v1 shell command print its exit status last. The
// subshell keeps `exit` inside cmd from skipping the echo; the newline ends
// a trailing comment in cmd.
func wrapExitMarker(cmd string) string {
	return "(" + cmd + "\n); echo \"" + exitMarker + "$?\""
}

// splitExitMarker separates a v1 shell command's output from the exit status
// printed by wrapExitMarker.
func splitExitMarker(out []byte) (stdout []byte, code int, ok bool) {
	i := bytes.LastIndex(out, []byte(exitMarker))
	if i < 0 {
		return out, -1, false
	}
	tail := strings.TrimRight(string(out[i+len(exitMarker):]), "\r\n")
	code, err := strconv.Atoi(tail)
	if err != nil {
		return out, -1, false
	}
	return out[:i], code, true
}

// parseFeatures parses the comma-separated reply of `host-serial:S:features`.
func parseFeatures(s string) []string {
	var out []string
	for f := range strings.SplitSeq(strings.TrimSpace(s), ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

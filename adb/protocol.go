package adb

import (
	"errors"
	"fmt"
	"io"
	"strconv"
)

// The adb host protocol (see AOSP packages/modules/adb/SERVICES.TXT and
// OVERVIEW.TXT): a request is a 4-hex-digit length followed by the service
// name; the server answers "OKAY" or "FAIL" + 4-hex length + message. Services
// with a result answer OKAY + 4-hex length + payload.

// maxRequest is the longest request the server accepts (MAX_PAYLOAD_V1 - 1 in adb).
const maxRequest = 0xffff

// encodeRequest frames a service request for the adb server socket.
func encodeRequest(service string) ([]byte, error) {
	if len(service) == 0 {
		return nil, errors.New("empty adb request")
	}
	if len(service) > maxRequest {
		return nil, fmt.Errorf("adb request too long (%d bytes)", len(service))
	}
	return fmt.Appendf(make([]byte, 0, 4+len(service)), "%04x%s", len(service), service), nil
}

// readStatus reads the 4-byte OKAY/FAIL status of a reply. A FAIL is turned
// into a *FailError carrying the server's message.
func readStatus(r io.Reader, service string) error {
	var status [4]byte
	if _, err := io.ReadFull(r, status[:]); err != nil {
		return fmt.Errorf("read status of %s: %w", service, err)
	}
	switch string(status[:]) {
	case "OKAY":
		return nil
	case "FAIL":
		msg, err := readHexPrefixed(r)
		if err != nil {
			return fmt.Errorf("read FAIL message of %s: %w", service, err)
		}
		return &FailError{Service: service, Message: string(msg)}
	default:
		return fmt.Errorf("adb %s: unexpected status %q", service, status[:])
	}
}

// readHexPrefixed reads one 4-hex-digit length-prefixed block. The length is at
// most 0xffff, so a hostile or corrupt peer cannot make us allocate much.
func readHexPrefixed(r io.Reader) ([]byte, error) {
	n, err := readHexLength(r)
	if err != nil {
		return nil, err
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(r, buf); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("read %d-byte adb payload: %w", n, err)
	}
	return buf, nil
}

// readHexLength reads the 4-hex-digit length header.
func readHexLength(r io.Reader) (int, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return 0, err
	}
	return parseHexLength(hdr[:])
}

func parseHexLength(hdr []byte) (int, error) {
	if len(hdr) != 4 {
		return 0, fmt.Errorf("adb length header must be 4 bytes, got %d", len(hdr))
	}
	for _, c := range hdr {
		if !isHex(c) {
			return 0, fmt.Errorf("bad adb length header %q", hdr)
		}
	}
	n, err := strconv.ParseUint(string(hdr), 16, 16)
	if err != nil {
		return 0, fmt.Errorf("bad adb length header %q: %w", hdr, err)
	}
	return int(n), nil
}

func isHex(c byte) bool {
	return ('0' <= c && c <= '9') || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F')
}

// The shell protocol v2 framing: packets of stdin, stdout, stderr, exit status.
package adbd

import (
	"encoding/binary"
	"fmt"
	"io"
	"sync"
)

// Shell protocol v2 packet ids (AOSP adb/shell_protocol.h): every packet is one id
// byte, a little-endian uint32 length and the payload.
const (
	shellStdin       = 0
	shellStdout      = 1
	shellStderr      = 2
	shellExit        = 3
	shellCloseStdin  = 4
	shellWindowSize  = 5
	shellPacketLimit = 1024 * 1024
)

type shellPacket struct {
	ID   byte
	Data []byte
}

// readShellPacket reads one v2 packet, refusing absurd lengths instead of
// allocating them.
func readShellPacket(r io.Reader) (shellPacket, error) {
	var h [5]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return shellPacket{}, err
	}
	n := binary.LittleEndian.Uint32(h[1:])
	if n > shellPacketLimit {
		return shellPacket{}, fmt.Errorf("shell packet %d: length %d over limit %d", h[0], n, shellPacketLimit)
	}
	p := shellPacket{ID: h[0], Data: make([]byte, n)}
	if _, err := io.ReadFull(r, p.Data); err != nil {
		return shellPacket{}, fmt.Errorf("shell packet %d payload: %w", h[0], err)
	}
	return p, nil
}

func encodeShellPacket(id byte, data []byte) []byte {
	b := make([]byte, 5+len(data))
	b[0] = id
	binary.LittleEndian.PutUint32(b[1:], uint32(len(data)))
	copy(b[5:], data)
	return b
}

// shellPacketWriter frames everything written to it as packets of one id; a shared
// mutex keeps stdout and stderr packets whole on the stream.
type shellPacketWriter struct {
	mu  *sync.Mutex
	w   io.Writer
	id  byte
	max int
}

func (s shellPacketWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	written := 0
	for len(p) > 0 {
		chunk := p
		if len(chunk) > s.max {
			chunk = chunk[:s.max]
		}
		if _, err := s.w.Write(encodeShellPacket(s.id, chunk)); err != nil {
			return written, err
		}
		written += len(chunk)
		p = p[len(chunk):]
	}
	return written, nil
}

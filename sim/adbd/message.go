// Transport messages: the 24-byte header, its checksum, and reading and writing
// one message.
package adbd

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Commands of the ADB transport protocol (AOSP adb/protocol.txt). Each is four ASCII
// bytes read as a little-endian uint32.
const (
	cmdSYNC = 0x434e5953 // "SYNC"
	cmdCNXN = 0x4e584e43 // "CNXN"
	cmdAUTH = 0x48545541 // "AUTH"
	cmdOPEN = 0x4e45504f // "OPEN"
	cmdOKAY = 0x59414b4f // "OKAY"
	cmdCLSE = 0x45534c43 // "CLSE"
	cmdWRTE = 0x45545257 // "WRTE"
	cmdSTLS = 0x534c5453 // "STLS"
)

const (
	// protocolVersion is A_VERSION of current adbd; from 0x01000001 on peers may skip
	// the data checksum, older ones verify it.
	protocolVersion     = 0x01000001
	versionSkipChecksum = 0x01000001
	headerSize          = 24
	deviceMaxData       = 256 * 1024
	// maxAcceptedData bounds what the reader accepts from a peer: adb's own MAX_PAYLOAD
	// is 1 MiB, so anything larger is a broken or hostile stream.
	maxAcceptedData = 1024 * 1024
)

// message is one transport message: the 24-byte header plus its payload.
type message struct {
	Command uint32
	Arg0    uint32
	Arg1    uint32
	Data    []byte
}

// header is the decoded 24-byte little-endian header.
type header struct {
	Command, Arg0, Arg1, DataLength, DataCheck, Magic uint32
}

var (
	errBadMagic    = errors.New("adb message magic does not match command")
	errTooLong     = errors.New("adb message payload too long")
	errBadChecksum = errors.New("adb message payload checksum mismatch")
)

func commandName(c uint32) string {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], c)
	for _, x := range b {
		if x < 'A' || x > 'Z' {
			return fmt.Sprintf("0x%08x", c)
		}
	}
	return string(b[:])
}

func (m message) String() string {
	return fmt.Sprintf("%s(%d, %d, %d bytes)", commandName(m.Command), m.Arg0, m.Arg1, len(m.Data))
}

// checksum is adb's "crc32" field, which is really the byte sum of the payload.
func checksum(data []byte) uint32 {
	var s uint32
	for _, b := range data {
		s += uint32(b)
	}
	return s
}

func parseHeader(b []byte) (header, error) {
	if len(b) < headerSize {
		return header{}, io.ErrUnexpectedEOF
	}
	h := header{
		Command:    binary.LittleEndian.Uint32(b[0:]),
		Arg0:       binary.LittleEndian.Uint32(b[4:]),
		Arg1:       binary.LittleEndian.Uint32(b[8:]),
		DataLength: binary.LittleEndian.Uint32(b[12:]),
		DataCheck:  binary.LittleEndian.Uint32(b[16:]),
		Magic:      binary.LittleEndian.Uint32(b[20:]),
	}
	if h.Magic != h.Command^0xffffffff {
		return h, fmt.Errorf("%w: command %s, magic 0x%08x", errBadMagic, commandName(h.Command), h.Magic)
	}
	return h, nil
}

// readMessage reads one message. verify enables the payload checksum check, which
// only peers older than versionSkipChecksum need.
func readMessage(r io.Reader, maxData uint32, verify bool) (message, error) {
	var hb [headerSize]byte
	if _, err := io.ReadFull(r, hb[:]); err != nil {
		return message{}, err
	}
	h, err := parseHeader(hb[:])
	if err != nil {
		return message{}, err
	}
	if h.DataLength > maxData {
		return message{}, fmt.Errorf("%w: %s carries %d bytes, limit %d", errTooLong, commandName(h.Command), h.DataLength, maxData)
	}
	m := message{Command: h.Command, Arg0: h.Arg0, Arg1: h.Arg1}
	if h.DataLength > 0 {
		m.Data = make([]byte, h.DataLength)
		if _, err := io.ReadFull(r, m.Data); err != nil {
			return message{}, fmt.Errorf("read %s payload: %w", commandName(h.Command), err)
		}
	}
	if verify && checksum(m.Data) != h.DataCheck {
		return message{}, fmt.Errorf("%w: %s", errBadChecksum, commandName(h.Command))
	}
	return m, nil
}

// encode renders the message with header, checksum (always computed: older hosts
// verify it) and payload in one buffer so it is written with a single call.
func (m message) encode() []byte {
	b := make([]byte, headerSize+len(m.Data))
	binary.LittleEndian.PutUint32(b[0:], m.Command)
	binary.LittleEndian.PutUint32(b[4:], m.Arg0)
	binary.LittleEndian.PutUint32(b[8:], m.Arg1)
	binary.LittleEndian.PutUint32(b[12:], uint32(len(m.Data)))
	binary.LittleEndian.PutUint32(b[16:], checksum(m.Data))
	binary.LittleEndian.PutUint32(b[20:], m.Command^0xffffffff)
	copy(b[headerSize:], m.Data)
	return b
}

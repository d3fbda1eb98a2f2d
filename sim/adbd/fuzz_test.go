// Fuzz targets for what the transport reads from the host: messages and shell
// packets.
package adbd

import (
	"bytes"
	"encoding/binary"
	"testing"
)

func FuzzReadMessage(f *testing.F) {
	f.Add(message{Command: cmdCNXN, Arg0: protocolVersion, Arg1: 4096, Data: []byte("host::features=shell_v2")}.encode())
	f.Add(message{Command: cmdOPEN, Arg0: 1, Data: []byte("shell:echo hi\x00")}.encode())
	f.Add(message{Command: cmdOKAY, Arg0: 1, Arg1: 2}.encode())
	f.Add(message{Command: cmdWRTE, Arg0: 1, Arg1: 2, Data: bytes.Repeat([]byte{0xff}, 64)}.encode())
	f.Add([]byte("CNXN\x00\x00\x00\x01"))
	huge := message{Command: cmdWRTE}.encode()
	binary.LittleEndian.PutUint32(huge[12:], 0xffffffff)
	f.Add(huge)
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, verify := range []bool{false, true} {
			m, err := readMessage(bytes.NewReader(b), maxAcceptedData, verify)
			if err != nil {
				continue
			}
			// Whatever parses must re-encode to the same header and payload.
			enc := m.encode()
			if !bytes.Equal(enc[:16], b[:16]) || !bytes.Equal(enc[20:], b[20:len(enc)]) {
				t.Fatalf("re-encoding %s differs from input", m)
			}
			if verify && !bytes.Equal(enc[16:20], b[16:20]) {
				t.Fatalf("verified checksum of %s differs", m)
			}
		}
	})
}

func FuzzReadShellPacket(f *testing.F) {
	f.Add(encodeShellPacket(shellStdin, []byte("input")))
	f.Add(encodeShellPacket(shellCloseStdin, nil))
	f.Add(append(encodeShellPacket(shellWindowSize, []byte("24x80,0x0\x00")), encodeShellPacket(shellStdin, []byte("x"))...))
	f.Add([]byte{shellExit, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		r := bytes.NewReader(b)
		for {
			p, err := readShellPacket(r)
			if err != nil {
				return
			}
			if len(p.Data) > shellPacketLimit {
				t.Fatalf("packet of %d bytes passed the limit", len(p.Data))
			}
			enc := encodeShellPacket(p.ID, p.Data)
			if !bytes.Contains(b, enc) {
				t.Fatalf("re-encoded packet %d not found in input", p.ID)
			}
		}
	})
}

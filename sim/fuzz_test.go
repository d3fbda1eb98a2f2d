package sim

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"strings"
	"testing"

	"fixthis/adb"
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

func FuzzParseShell(f *testing.F) {
	for _, s := range []string{
		"echo hi", "false && echo no || echo yes; echo done", `echo 'a  b' "c\"d"`,
		"dumpsys window | grep -E 'mCurrentFocus|mFocusedApp'", "cat /nope 2>/dev/null >> /sdcard/x &> /dev/null",
		"exit 3", "echo $?", "ls -la /sdcard # comment", "a ||", "'unterminated",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		pls, err := parseShell(s)
		if err != nil {
			return
		}
		for _, pl := range pls {
			if len(pl.cmds) == 0 {
				t.Fatalf("parse %q: empty pipeline", s)
			}
			for _, c := range pl.cmds {
				if len(c.args) == 0 {
					t.Fatalf("parse %q: command without a name", s)
				}
			}
		}
	})
}

// A value quoted by the client's one quoting function comes back from the phone's
// shell as exactly one argument, byte for byte, whatever metacharacters it holds;
// Command does the same for a whole argument list.
func FuzzQuoteRoundTrip(f *testing.F) {
	for _, s := range []string{"com.fixthis.demo", "", "a b", "it's", "com.x\ntouch\t/data/local/tmp/x",
		"com.x>/data/local/tmp/y", "-p\tcom.x", "$(touch /x)", "`id`", "a;b&&c||d|e", "#x", "'\"\\", "$?", "a\rb"} {
		f.Add(s, "second word")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if strings.ContainsRune(a, 0) || strings.ContainsRune(b, 0) {
			return // no command line can carry a NUL; the validators refuse it first
		}
		for _, args := range [][]string{{a}, {a, b}} {
			line := adb.Command(append([]string{"echo"}, args...)...)
			pls, err := parseShell(line)
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			want := append([]string{"echo"}, args...)
			if len(pls) != 1 || len(pls[0].cmds) != 1 || len(pls[0].cmds[0].redirs) != 0 ||
				!reflect.DeepEqual(pls[0].cmds[0].args, want) {
				t.Fatalf("%s parsed as %+v, want the one command %q", line, pls, want)
			}
		}
	})
}

// Fuzz targets for the parser: whatever parses is well formed, and a value quoted
// by the client's quoting function comes back as exactly one word.
package shell

import (
	"reflect"
	"strings"
	"testing"

	"fixthis/internal/shellquote"
)

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
			line := shellquote.Join(append([]string{"echo"}, args...)...)
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

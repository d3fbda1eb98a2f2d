package adb

import (
	"errors"
	"strings"
	"testing"
	"unicode"

	"fixthis/internal/shellquote"
)

func TestCheckArgs(t *testing.T) {
	long := "com." + strings.Repeat("a", 300)
	tests := []struct {
		check func(string) error
		name  string
		ok    []string
		bad   []string
	}{
		{CheckPackage, "package", []string{"com.fixthis.demo", "a.b", "com.Example_1.app2", "org.mozilla.firefox_beta"},
			[]string{"", "com", ".com.x", "com.", "com..x", "1com.x", "com.1x", "com._x", "com.x-y", "-p\tcom.x", "com.x y",
				"com.x\ntouch /x", "com.x;id", "com.x>/f", "com.x$(id)", "com.x`id`", "com.x'", "com.x/.Main", long}},
		{CheckComponent, "component", []string{"com.fixthis.demo/.MainActivity", "com.x/com.x.ui.Main", "com.x/.Outer$Inner", "a.b/_A"},
			[]string{"", "com.x", "com.x/", "/.Main", "com.x/.Main;id", "com.x/..Main", "com.x/.Main\n", "com.x/.1Main",
				"com.x/.Main -a x", "com.x/.Main/x", "x/.Main"}},
		{CheckKey, "key", []string{"BACK", "ENTER", "DPAD_UP", "F12", "4", "1234"},
			[]string{"", "back", "_BACK", "BACK;", "BACK X", "12345", "BACK\n", strings.Repeat("A", 65)}},
		{CheckDisplay, "display", []string{"0", "4619827259835644672"}, []string{"", "-1", "0 ", "0;id", "a"}},
		{CheckPath, "path", []string{"/data/local/tmp/fixthis-app-debug.apk", "/sdcard/a_b.c+d"},
			[]string{"", "relative", "/", "/data/../etc", "/data/..", "/a b", "/a;b", "/a'b", "/a\nb", "/a$(b)"}},
		{CheckSerial, "serial", []string{"emulator-5554", "127.0.0.1:5555", "[fe80::1%wlan0]:5555", "adb-R58M1._adb-tls-connect._tcp", "0123456789ABCDEF", strings.Repeat("x", 255)},
			[]string{"", "a b", "a\nb", "a\tb", "a\x00", strings.Repeat("x", 256)}},
		{checkSocketSpec, "socket", []string{"tcp:0", "localabstract:fixthis_com.example.app-1", "tcp:" + strings.Repeat("9", 255)},
			[]string{"", "tcp", "tcp:", ":x", "TCP:1", "tcp:1;tcp:2", "localabstract:a b", "tcp:" + strings.Repeat("9", 256)}},
		{CheckText, "text", []string{"", "hello", "a b;c|d>e$(f)`g`'h\"i#", "héllo ✓", "-p"},
			[]string{"a\nb", "a\tb", "a\rb", "\x00", "bell\a", "\x1b[2J", "del\x7f", "c1\u0085", "\xff", strings.Repeat("a", 4097)}},
	}
	for _, tc := range tests {
		for _, v := range tc.ok {
			if err := tc.check(v); err != nil {
				t.Errorf("%s %q: %v", tc.name, v, err)
			}
		}
		for _, v := range tc.bad {
			err := tc.check(v)
			if !errors.Is(err, ErrInvalidArg) {
				t.Errorf("%s %q: got %v, want ErrInvalidArg", tc.name, v, err)
				continue
			}
			if len(err.Error()) > 250 {
				t.Errorf("%s %q: the error is %d bytes long", tc.name, v, len(err.Error()))
			}
		}
	}
}

func TestCommand(t *testing.T) {
	if got := Command("am", "start", "-n", "com.x/.Main$Inner"); got != `am start -n 'com.x/.Main$Inner'` {
		t.Errorf("Command: %s", got)
	}
}

// Whatever a validator accepts is a word the shell leaves alone (Quote keeps it as
// it is) with nothing in it the shell would read, and a refusal quotes at most a
// few dozen characters of the value.
func FuzzCheckArgs(f *testing.F) {
	for _, s := range []string{"com.fixthis.demo", "com.x/.Main", "BACK", "0", "/data/local/tmp/x", "emulator-5554",
		"hello world", "com.x\ntouch\t/data/local/tmp/x", "com.x>/data/local/tmp/y", "-p\tcom.x", "a\x00b", "héllo\a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for name, check := range map[string]func(string) error{"package": CheckPackage, "component": CheckComponent,
			"key": CheckKey, "display": CheckDisplay, "path": CheckPath} {
			err := check(s)
			if err == nil {
				if q := shellquote.Quote(s); q != s && !(name == "component" && strings.Contains(s, "$")) {
					t.Fatalf("%s accepted %q, which the shell would not read as it is (%s)", name, s, q)
				}
				if strings.ContainsAny(s, " \t\n\r;&|<>#'\"`\\(){}*?[]~!\x00") || strings.HasPrefix(s, "-") {
					t.Fatalf("%s accepted %q", name, s)
				}
			} else if len(err.Error()) > 250 {
				t.Fatalf("%s: a %d-byte error for a %d-byte value", name, len(err.Error()), len(s))
			}
		}
		if err := CheckText(s); err == nil && strings.IndexFunc(s, unicode.IsControl) >= 0 {
			t.Fatalf("text with a control character accepted: %q", s)
		} else if err != nil && len(err.Error()) > 250 {
			t.Fatalf("text: a %d-byte error", len(err.Error()))
		}
		if err := CheckSerial(s); err == nil && strings.ContainsAny(s, " \t\n\r\x00") {
			t.Fatalf("serial %q accepted", s)
		}
	})
}

// A serial that is no serial never reaches the adb server: the handle refuses it
// before it dials (the client here points at a port nothing listens on).
func TestHandleRefusesBadSerials(t *testing.T) {
	c, err := NewClient(Options{Port: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"emu 5554", "emulator-5554\nhost:kill", "a\x00b", strings.Repeat("s", 300)} {
		d := c.Device(s)
		if _, err := d.Shell(t.Context(), "true"); !errors.Is(err, ErrInvalidArg) {
			t.Errorf("shell on %q: %v", s, err)
		}
		if _, err := d.Exec(t.Context(), "true"); !errors.Is(err, ErrInvalidArg) {
			t.Errorf("exec on %q: %v", s, err)
		}
		if _, err := c.Forward(t.Context(), s, "tcp:0", "localabstract:x"); !errors.Is(err, ErrInvalidArg) {
			t.Errorf("forward on %q: %v", s, err)
		}
	}
	if _, err := c.Forward(t.Context(), "emulator-5554", "tcp:0", "localabstract:x;tcp:1"); !errors.Is(err, ErrInvalidArg) {
		t.Errorf("forward to a spec with ';': %v", err)
	}
}

package adb

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"fixthis/internal/shellquote"
)

// Every service that runs a program on the device — shell:, shell,v2: and exec:
// alike — hands its command line to `/system/bin/sh -c` (adbd's subprocess always
// execs the shell). A value that reaches a device command is therefore checked
// against its grammar here and joined with Command, which quotes every word with
// shellquote.Quote, the one quoting function.

// ErrInvalidArg means a value does not fit the grammar of the device command
// argument it was meant for; nothing was sent to the device.
var ErrInvalidArg = errors.New("invalid device command argument")

// ArgError says which value was refused and why, quoting at most a few dozen
// characters of it.
type ArgError struct {
	What  string // "package name", "activity", "key", ...
	Value string
	Want  string // the grammar, in words
}

func (e *ArgError) Error() string {
	return fmt.Sprintf("%s %s is not valid: %s", e.What, Clip(e.Value), e.Want)
}

// Unwrap makes errors.Is(err, ErrInvalidArg) hold.
func (e *ArgError) Unwrap() error { return ErrInvalidArg }

// clipLen is how many characters of a refused value an error quotes.
const clipLen = 32

// Clip quotes s for an error message, cut to its first few dozen characters.
func Clip(s string) string {
	if utf8.RuneCountInString(s) > clipLen {
		r := []rune(s)
		return fmt.Sprintf("%q…", string(r[:clipLen]))
	}
	return fmt.Sprintf("%q", s)
}

// Command joins a program and its arguments into one device command line, each
// word quoted by the shared device-shell grammar (internal/shellquote, which the
// simulated device's adbd uses too).
func Command(args ...string) string { return shellquote.Join(args...) }

var (
	// An Android package name (the manifest's package, Gradle's applicationId):
	// at least two segments, each a letter followed by letters, digits or '_'.
	packageRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$`)
	// A Java class name, as an activity is named: dot-separated identifiers ('$'
	// for nested classes), or a name relative to the package with a leading dot.
	classRE = regexp.MustCompile(`^\.?[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*)*$`)
	// A key of `input keyevent`: a KEYCODE_ name's suffix or a key code number.
	keyRE = regexp.MustCompile(`^([A-Z][A-Z0-9_]*|[0-9]{1,4})$`)
	// A display id of `screencap -d` and `dumpsys SurfaceFlinger --display-id`.
	displayRE = regexp.MustCompile(`^[0-9]{1,20}$`)
	// A device path FixThis builds: absolute, no "..", plain characters only.
	pathRE = regexp.MustCompile(`^(/[A-Za-z0-9_.+,=@-]+)+$`)
	// A serial: what `adb devices -l` can print as its first field (no space, no
	// control character) — USB serial numbers, emulator-5554, host:port,
	// [v6]:port, and mDNS names such as adb-XYZ._adb-tls-connect._tcp. At most
	// maxName of them: the length is checked apart, since `{1,255}` in the pattern
	// compiles to 255 copies and cost every FixThis process 3.5 ms to start.
	serialRE = regexp.MustCompile(`^[!-~]+$`)
	// A socket spec of a forward (tcp:PORT, localabstract:NAME, …): ';' would end
	// the local spec of `forward:LOCAL;REMOTE` early. Its name is at most maxName.
	socketSpecRE = regexp.MustCompile(`^[a-z]+:[A-Za-z0-9_.:@-]+$`)
)

// Limits of the grammars above (Android refuses package names over 255 characters).
const (
	maxName = 255
	maxText = 4096
)

// CheckPackage checks an Android package name.
func CheckPackage(s string) error {
	if len(s) > maxName || !packageRE.MatchString(s) {
		return &ArgError{"package name", s, "want dot-separated names of letters, digits and _, each starting with a letter, like com.example.app"}
	}
	return nil
}

// CheckComponent checks an activity component, `PACKAGE/CLASS` with CLASS full or
// relative to the package (`.MainActivity`).
func CheckComponent(s string) error {
	pkg, cls, ok := strings.Cut(s, "/")
	if !ok || len(s) > 2*maxName || CheckPackage(pkg) != nil || !classRE.MatchString(cls) {
		return &ArgError{"activity component", s, "want package/class, like com.example.app/.MainActivity"}
	}
	return nil
}

// CheckKey checks a key of `input keyevent`: a KEYCODE_ name without the prefix
// (BACK, ENTER) or a key code number.
func CheckKey(s string) error {
	if len(s) > 64 || !keyRE.MatchString(s) {
		return &ArgError{"key", s, "want a key name (BACK, HOME, ENTER, DEL, APP_SWITCH, …) or a key code"}
	}
	return nil
}

// CheckDisplay checks a display id.
func CheckDisplay(s string) error {
	if !displayRE.MatchString(s) {
		return &ArgError{"display id", s, "want a number"}
	}
	return nil
}

// CheckPath checks a device path FixThis builds.
func CheckPath(s string) error {
	if len(s) > 1024 || !pathRE.MatchString(s) || strings.Contains(s, "/../") || strings.HasSuffix(s, "/..") {
		return &ArgError{"device path", s, "want an absolute path of letters, digits and _.+,=@-"}
	}
	return nil
}

// CheckSerial checks a device serial before it goes to the adb server.
func CheckSerial(s string) error {
	if len(s) > maxName || !serialRE.MatchString(s) {
		return &ArgError{"serial", s, "want 1 to 255 printable characters without spaces"}
	}
	return nil
}

func checkSocketSpec(s string) error {
	if _, name, _ := strings.Cut(s, ":"); len(name) > maxName || !socketSpecRE.MatchString(s) {
		return &ArgError{"socket", s, "want kind:name, like tcp:0 or localabstract:name"}
	}
	return nil
}

// CheckText checks text meant for `input text`: valid UTF-8, at most 4096 bytes, and
// no control characters (NUL, BEL, ESC, DEL, …; newlines and tabs included, which
// `input text` cannot type anyway: send the ENTER and TAB keys).
func CheckText(s string) error {
	if !utf8.ValidString(s) {
		return &ArgError{"text", s, "want valid UTF-8"}
	}
	if len(s) > maxText {
		return &ArgError{"text", s, fmt.Sprintf("want at most %d bytes, not %d", maxText, len(s))}
	}
	if i := strings.IndexFunc(s, unicode.IsControl); i >= 0 {
		r, _ := utf8.DecodeRuneInString(s[i:])
		return &ArgError{"text", s, fmt.Sprintf("control character %U at byte %d; send keys (ENTER, TAB, …) for those", r, i)}
	}
	return nil
}

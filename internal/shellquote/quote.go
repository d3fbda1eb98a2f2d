// Package shellquote is the quoting grammar of the device shell (`/system/bin/sh -c`,
// which every adbd service that runs a program hands its command line to). Both sides
// of the adb connection need it: the client quotes the words it sends, and the
// simulated device's adbd quotes the arguments of an abb: service before running them
// as one command line. It sits below both so neither imports the other.
package shellquote

import (
	"strings"
	"unicode/utf8"
)

// Quote makes s one word of the device shell, whatever it holds: words made of
// letters, digits and `_-./:=,@%+` stay as they are, anything else is put in single
// quotes, where a single quote inside closes them, is escaped and reopens them. A
// NUL cannot be passed in a command line at all; callers refuse it before.
func Quote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool { return !isPlain(r) }) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// isPlain says whether r needs no quoting: no shell reads anything into these.
func isPlain(r rune) bool {
	return r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
		strings.ContainsRune("_-./:=,@%+", r))
}

// Join joins a program and its arguments into one command line, each word quoted
// with Quote.
func Join(args ...string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = Quote(a)
	}
	return strings.Join(q, " ")
}

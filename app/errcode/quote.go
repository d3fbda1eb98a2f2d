package errcode

import (
	"strconv"
	"unicode/utf8"
)

// MaxQuote is how many characters of a refused value an error message quotes.
const MaxQuote = 40

// Quote is how every error message names a value it refuses: Go-quoted (control
// characters and invalid UTF-8 escaped), cut to MaxQuote characters, and when cut
// followed by "…" and the value's full length. A megabyte field never becomes a
// megabyte message, and a newline in a value never breaks a log line.
func Quote(v string) string {
	i, n := 0, 0
	for i < len(v) && n < MaxQuote {
		_, size := utf8.DecodeRuneInString(v[i:])
		i += size
		n++
	}
	if i == len(v) {
		return strconv.Quote(v)
	}
	return strconv.Quote(v[:i]) + "… (" + strconv.Itoa(len(v)) + " bytes)"
}

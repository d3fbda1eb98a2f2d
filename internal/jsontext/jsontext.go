// Package jsontext holds the one rule for the text inside a JSON request that
// every surface applies (the console's API, the MCP tools): it is valid UTF-8
// and escapes no half of a UTF-16 surrogate pair. Go's decoder turns both into
// U+FFFD without a word, so a value would be stored, or typed on a phone,
// as something other than what was sent; this check runs on the raw bytes first.
package jsontext

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Error says what is wrong with a JSON text and where.
type Error struct {
	// Surrogate is true for a \uXXXX escape of half a surrogate pair, false for
	// bytes that are not UTF-8.
	Surrogate bool
	// At is the byte offset of the problem in the text.
	At int
}

func (e *Error) Error() string {
	if e.Surrogate {
		return "escapes half a UTF-16 surrogate pair at byte " + strconv.Itoa(e.At)
	}
	return "is not valid UTF-8 at byte " + strconv.Itoa(e.At)
}

// Check returns an *Error for a JSON text that is not valid UTF-8 or escapes a
// lone surrogate, and nil otherwise. It does not check the JSON grammar.
func Check(b []byte) error {
	if !utf8.Valid(b) {
		return &Error{At: firstInvalid(b)}
	}
	if at := loneSurrogate(b); at >= 0 {
		return &Error{Surrogate: true, At: at}
	}
	return nil
}

func firstInvalid(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return len(b)
}

// loneSurrogate returns the offset of a \uXXXX escape of half a surrogate pair
// in a JSON text, or -1. Backslashes occur only inside strings, so no string
// tracking is needed.
func loneSurrogate(b []byte) int {
	hex4 := func(i int) (rune, bool) {
		if i+6 > len(b) || b[i] != '\\' || b[i+1] != 'u' {
			return 0, false
		}
		n, err := strconv.ParseUint(string(b[i+2:i+6]), 16, 32)
		return rune(n), err == nil
	}
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' {
			continue
		}
		r, ok := hex4(i)
		if !ok {
			i++ // another escape: skip the escaped byte
			continue
		}
		switch {
		case utf16.IsSurrogate(r) && r < 0xDC00:
			if lo, ok := hex4(i + 6); !ok || lo < 0xDC00 || lo > 0xDFFF {
				return i
			}
			i += 11
		case utf16.IsSurrogate(r):
			return i
		default:
			i += 5
		}
	}
	return -1
}

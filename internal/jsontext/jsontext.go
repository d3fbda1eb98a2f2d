// Package jsontext is the strict text rule for a JSON text from outside: valid
// UTF-8, and no \u escape of half a UTF-16 surrogate pair. Go's decoder turns both
// into U+FFFD without a word, so whoever stores what a JSON text says checks it
// here first and refuses it instead. The console's request bodies, the Realtime
// server's frames and the arguments of its tool calls (a JSON text inside a JSON
// string) keep the same rule.
package jsontext

import (
	"errors"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Errors of Check.
var (
	ErrInvalidUTF8   = errors.New("the text is not valid UTF-8")
	ErrLoneSurrogate = errors.New("the text escapes half a UTF-16 surrogate pair")
)

// Check refuses invalid UTF-8 and lone surrogate escapes.
func Check(b []byte) error {
	if !utf8.Valid(b) {
		return ErrInvalidUTF8
	}
	if LoneSurrogate(b) >= 0 {
		return ErrLoneSurrogate
	}
	return nil
}

// LoneSurrogate returns the offset of the first \uXXXX escape of half a surrogate
// pair (a high half not followed by an escaped low half, or a low half alone), or
// -1. Backslashes occur only inside strings, so no string tracking is needed.
func LoneSurrogate(b []byte) int {
	// escapeAt reads the \uXXXX escape at i, if there is one.
	escapeAt := func(i int) (rune, bool) {
		if i+6 > len(b) || b[i] != '\\' || b[i+1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(string(b[i+2:i+6]), 16, 16)
		return rune(v), err == nil
	}
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' {
			continue
		}
		r, ok := escapeAt(i)
		switch {
		case !ok:
			i++ // \" \\ \n …: the escaped byte is no escape of its own
		case r >= 0xDC00 && r <= 0xDFFF:
			return i // a low half with no high half before it
		case utf16.IsSurrogate(r):
			if lo, ok := escapeAt(i + 6); !ok || lo < 0xDC00 || lo > 0xDFFF {
				return i
			}
			i += 11
		default:
			i += 5
		}
	}
	return -1
}

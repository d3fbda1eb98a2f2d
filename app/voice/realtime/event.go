package realtime

import (
	"encoding/json"
	"errors"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Event holds the fields of the Realtime server events the interviewer uses.
type Event struct {
	Type       string `json:"type"`
	ItemID     string `json:"item_id"`
	ResponseID string `json:"response_id"`
	Delta      string `json:"delta"`
	Transcript string `json:"transcript"`
	Text       string `json:"text"`
	CallID     string `json:"call_id"`
	Name       string `json:"name"`
	Arguments  string `json:"arguments"`
	Response   *struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	} `json:"response"`
	Error *struct {
		Type    string `json:"type"`
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	// BadText is set when the frame was not strict text: invalid UTF-8, or a JSON
	// escape of half a UTF-16 surrogate pair. Go decodes both to U+FFFD, so a
	// consumer that stores what the event says must refuse it instead.
	BadText bool `json:"-"`
	// Size is the frame's length in bytes.
	Size int `json:"-"`
}

// decode parses one server frame.
func decode(raw []byte) (Event, error) {
	var ev Event
	if err := json.Unmarshal(raw, &ev); err != nil {
		return Event{}, err
	}
	ev.BadText = CheckText(raw) != nil
	ev.Size = len(raw)
	return ev, nil
}

// Errors of CheckText.
var (
	ErrInvalidUTF8   = errors.New("the text is not valid UTF-8")
	ErrLoneSurrogate = errors.New("the text escapes half a UTF-16 surrogate pair")
)

// CheckText is the console's strict text rule for a JSON text from outside: it
// must be valid UTF-8, and every \uD800–\uDFFF escape must be one half of a pair
// (high then low). It holds for the frames of the upstream and for the arguments
// of a tool call, which are a JSON text inside a JSON string.
func CheckText(b []byte) error {
	if !utf8.Valid(b) {
		return ErrInvalidUTF8
	}
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
			return ErrLoneSurrogate // a low half with no high half before it
		case utf16.IsSurrogate(r):
			if lo, ok := escapeAt(i + 6); !ok || lo < 0xDC00 || lo > 0xDFFF {
				return ErrLoneSurrogate
			}
			i += 11
		default:
			i += 5
		}
	}
	return nil
}

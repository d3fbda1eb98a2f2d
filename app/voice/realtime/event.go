package realtime

import (
	"encoding/json"

	"fixthis/internal/jsontext"
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

// Decode parses one server frame.
func Decode(raw []byte) (Event, error) {
	var ev Event
	if err := json.Unmarshal(raw, &ev); err != nil {
		return Event{}, err
	}
	ev.BadText = jsontext.Check(raw) != nil
	ev.Size = len(raw)
	return ev, nil
}

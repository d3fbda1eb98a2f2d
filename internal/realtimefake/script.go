package realtimefake

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
)

// Script is what the fake says. Each detected speech turn consumes the next Turn:
// its transcript is sent as the input transcription, and its first Response runs as
// the server-triggered response. Every later response.create from the client runs
// the turn's next Response (a follow-up after a tool result, for example).
type Script struct {
	Turns []Turn `json:"turns"`
	// Notes answer system notes: when a client's system message starts with a
	// Note's Prefix, that Note's responses become the ones the next response.create
	// runs (in place of the turn's). Each Note answers once, in order.
	Notes []Note `json:"notes,omitempty"`
}

// Note is what the interviewer does when a system note arrives, such as the
// answer to an [ENDPOINT QUESTION].
type Note struct {
	Prefix    string     `json:"prefix"`
	Responses []Response `json:"responses"`
}

// Turn is one spoken turn of the user and what the interviewer does about it.
type Turn struct {
	Transcript string     `json:"transcript"`
	Responses  []Response `json:"responses,omitempty"`
}

// Response is one model response: tool calls first, then an optional spoken reply.
type Response struct {
	ToolCalls []ToolCall `json:"toolCalls,omitempty"`
	// Text is the reply's audio transcript; AudioMs how much tone is generated as its
	// audio (0: text only, no audio deltas).
	Text    string `json:"text,omitempty"`
	AudioMs int    `json:"audioMs,omitempty"`
	// HoldMs keeps the response active (between response.created and response.done)
	// for at least this long, so clients can be seen holding their notes.
	HoldMs int `json:"holdMs,omitempty"`
}

// ToolCall is one function call the model makes.
type ToolCall struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	// CallID fixes the call's id ("" mints a new one); the same id twice is how a
	// script replays a call.
	CallID string `json:"callId,omitempty"`
}

// LoadScript reads a script file.
func LoadScript(path string) (Script, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return Script{}, fmt.Errorf("read script: %w", err)
	}
	var s Script
	if err := json.Unmarshal(raw, &s); err != nil {
		return Script{}, fmt.Errorf("parse script %s: %w", path, err)
	}
	for i, n := range s.Notes {
		if n.Prefix == "" {
			return Script{}, fmt.Errorf("script note %d: no prefix", i)
		}
		if err := checkResponses(fmt.Sprintf("script note %d", i), n.Responses); err != nil {
			return Script{}, err
		}
	}
	for i, t := range s.Turns {
		if err := checkResponses(fmt.Sprintf("script turn %d", i), t.Responses); err != nil {
			return Script{}, err
		}
	}
	return s, nil
}

// checkResponses refuses a tool call without a name or with arguments that are not
// JSON, and gives one without arguments an empty object.
func checkResponses(where string, rs []Response) error {
	for j, r := range rs {
		for k, c := range r.ToolCalls {
			if c.Name == "" {
				return fmt.Errorf("%s response %d tool call %d: no name", where, j, k)
			}
			if len(c.Arguments) == 0 {
				rs[j].ToolCalls[k].Arguments = json.RawMessage(`{}`)
			} else if !json.Valid(c.Arguments) {
				return fmt.Errorf("%s response %d tool call %d: arguments are not JSON", where, j, k)
			}
		}
	}
	return nil
}

// toneChunks generates ms of a soft 440 Hz tone as PCM16LE mono 24 kHz, split in
// chunks of at most 100 ms, the way the real server streams output audio.
func toneChunks(ms int) [][]byte {
	total := ms * SampleRate / 1000
	var chunks [][]byte
	for start := 0; start < total; start += SampleRate / 10 {
		n := min(SampleRate/10, total-start)
		buf := make([]byte, 2*n)
		for i := range n {
			v := 0.2 * math.Sin(2*math.Pi*440*float64(start+i)/SampleRate)
			binary.LittleEndian.PutUint16(buf[2*i:], uint16(int16(v*32767)))
		}
		chunks = append(chunks, buf)
	}
	return chunks
}

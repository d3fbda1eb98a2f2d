package httpapi

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"fixthis/app/errcode"
	"fixthis/app/store"
)

// batchBody has the shape of the batch save's body, the largest the API reads.
type batchBody struct {
	SessionID         string            `json:"sessionId"`
	FrozenID          string            `json:"frozenId"`
	WorkspaceID       string            `json:"workspaceId"`
	FrozenFingerprint string            `json:"frozenFingerprint"`
	Items             []store.BatchItem `json:"items"`
}

func TestDecodeBody(t *testing.T) {
	cases := []struct {
		name, body string
		ok         bool
		prefix     string
	}{
		{"object", `{"sessionId":"s"}`, true, ""},
		{"white space after", "{\"sessionId\":\"s\"}\n\t ", true, ""},
		{"a pair of surrogates", `{"sessionId":"\ud83d\ude00"}`, true, ""},
		{"escaped backslash before u", `{"sessionId":"\\ud800"}`, true, ""},
		{"a real U+FFFD", `{"sessionId":"\ufffd�"}`, true, ""},
		{"empty", ``, false, "request body is empty"},
		{"second value", `{"sessionId":"s"} {"sessionId":"t"}`, false, "request body has data after its JSON value"},
		{"garbage after", `{"sessionId":"s"}x`, false, "request body has data after its JSON value"},
		{"invalid UTF-8", "{\"sessionId\":\"s\xff\"}", false, "request body is not valid UTF-8"},
		{"overlong encoding", "{\"sessionId\":\"\xc0\xaf\"}", false, "request body is not valid UTF-8"},
		{"high surrogate alone", `{"sessionId":"\ud800"}`, false, "request body escapes half a UTF-16 surrogate pair"},
		{"high surrogate at the end", `{"sessionId":"x\udbff`, false, "request body escapes half a UTF-16 surrogate pair"},
		{"low surrogate alone", `{"sessionId":"\udc00"}`, false, "request body escapes half a UTF-16 surrogate pair"},
		{"two high surrogates", `{"sessionId":"\ud800\ud800"}`, false, "request body escapes half a UTF-16 surrogate pair"},
		{"not JSON", `{"sessionId":}`, false, "request body is not valid JSON: it breaks off at byte 14"},
		// An area drawn at a stage scale that is not whole (1366×768).
		{"fractional pixel", `{"items":[{"target":{"type":"area","bounds":{"left":516,"top":260.47412353923204,"right":612,"bottom":308}}}]}`,
			false, `items.target.bounds.top must be a whole number, not "260.47412353923204"`},
		{"exponent pixel", `{"items":[{"target":{"bounds":{"left":1e2}}}]}`, false, `items.target.bounds.left must be a whole number, not "1e2"`},
		{"pixel out of range", `{"items":[{"target":{"bounds":{"left":99999999999999999999}}}]}`, false, "items.target.bounds.left is out of range"},
		{"string for a number", `{"items":[{"target":{"bounds":{"left":"5"}}}]}`, false, "items.target.bounds.left must be a whole number, not a string"},
		{"number for a string", `{"sessionId":5}`, false, "sessionId must be a string, not a number"},
		{"list for an object", `[]`, false, "request body must be a JSON object, not a list"},
		{"object for a list", `{"items":{}}`, false, "items must be a list, not an object"},
	}
	for _, c := range cases {
		var req batchBody
		err := decodeBody([]byte(c.body), &req)
		if c.ok != (err == nil) {
			t.Errorf("%s: %v, want ok=%v", c.name, err, c.ok)
			continue
		}
		if err != nil && (errcode.Of(err) != errcode.InvalidJSON || !strings.HasPrefix(err.Error(), "INVALID_INPUT: "+c.prefix)) {
			t.Errorf("%s: %v, want INVALID_INPUT: %s", c.name, err, c.prefix)
		}
		// The decoder's own words name Go types and struct fields; a refusal never does.
		if err != nil && (strings.Contains(err.Error(), "Go struct") || strings.Contains(err.Error(), "unmarshal")) {
			t.Errorf("%s: %v quotes the decoder", c.name, err)
		}
	}
}

// FuzzDecodeBody: decoding a batch body never panics, and what it accepts is
// one JSON value of valid text: every decoded string is what was sent, never
// a U+FFFD the body did not hold.
func FuzzDecodeBody(f *testing.F) {
	for _, seed := range []string{
		`{"sessionId":"s","frozenId":"p","items":[{"draftItemId":"d","comment":"c","target":{"type":"area","bounds":{"left":0,"top":0,"right":4611686018427387904,"bottom":1}}}]}`,
		`{"sessionId":"s"} {"sessionId":"t"}`, `{"sessionId":"s"}]`, "{\"comment\":\"a\xffb\"}", `{"frozenId":""}`,
		`{"sessionId":"\ud800"}`, `{"sessionId":"\udc00\ud800"}`, `{"sessionId":"\ud83d\ude00"}`, `{"sessionId":"a\u0000b"}`,
		`{"sessionId":"\\ud800"}`, "{\"sessionId\":\"\\\\\\ud800\"}", `{"items":[{"comment":"` + strings.Repeat("x", 1000) + `"}]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var req batchBody
		if err := decodeBody(body, &req); err != nil {
			if errcode.Of(err) != errcode.InvalidJSON {
				t.Fatalf("refused with %s: %v", errcode.Of(err), err)
			}
			return
		}
		if !utf8.Valid(body) {
			t.Fatalf("accepted invalid UTF-8 %q", body)
		}
		if !json.Valid(bytes.TrimSpace(body)) {
			t.Fatalf("accepted %q, which is not one JSON value", body)
		}
		sent := bytes.Count(body, []byte("\uFFFD")) + bytes.Count(bytes.ToLower(body), []byte(`\ufffd`))
		got := strings.Count(req.SessionID+req.FrozenID+req.WorkspaceID+req.FrozenFingerprint, "\uFFFD")
		for _, it := range req.Items {
			got += strings.Count(it.DraftItemID+string(it.Severity)+it.Comment+string(it.Target.Type)+it.Target.NodeUID, "\uFFFD")
		}
		if got > sent {
			t.Fatalf("decoded %d U+FFFD from a body holding %d: %q", got, sent, body)
		}
	})
}

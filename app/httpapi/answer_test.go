package httpapi

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"fixthis/app/errcode"
)

type echoRequest struct {
	Word string `json:"word"`
}

// DecodeAnswer calls do only with a body that decodes, and answers do's result or
// its error, never both.
func TestDecodeAnswer(t *testing.T) {
	failed := errcode.New(errcode.SessionNotFound, "no session %s", errcode.Quote("s-1"))
	for _, tc := range []struct {
		name     string
		body     string
		decode   func(*http.Request, any) error
		err      error
		wantCode int
		wantCall bool
		wantBody string
	}{
		{"decoded and answered", `{"word":"hi"}`, DecodeJSON, nil, 200, true, `{"word":"hi"}`},
		{"a body that does not decode", `{"word":`, DecodeJSON, nil, 400, false, `"INVALID_INPUT`},
		{"a field of the wrong kind", `{"word":7}`, DecodeJSON, nil, 400, false, `"INVALID_INPUT`},
		{"a NUL byte", "{\"word\":\"a\x00\"}", DecodeJSON, nil, 400, false, `"INVALID_INPUT`},
		{"no body where one is required", ``, DecodeJSON, nil, 400, false, `"INVALID_INPUT`},
		{"no body where it may be empty", ``, DecodeOptionalJSON, nil, 200, true, `{"word":""}`},
		{"a megabyte field", `{"word":"` + strings.Repeat("w", 1<<20) + `"}`, DecodeJSON, nil, 200, true, strings.Repeat("w", 1<<20)},
		{"a body over the bound", `{"word":"` + strings.Repeat("w", 33<<20) + `"}`, DecodeJSON, nil, 413, false, `"PAYLOAD_TOO_LARGE`},
		{"do's error is the whole answer", `{"word":"hi"}`, DecodeJSON, failed, 404, true, `SESSION_NOT_FOUND: no session \"s-1\"`},
	} {
		called := false
		rec := httptest.NewRecorder()
		DecodeAnswer(rec, httptest.NewRequest("POST", "/", strings.NewReader(tc.body)), tc.decode, func(req echoRequest) (echoRequest, error) {
			called = true
			return req, tc.err
		})
		if rec.Code != tc.wantCode || called != tc.wantCall || !strings.Contains(rec.Body.String(), tc.wantBody) {
			t.Errorf("%s: %d called=%v %.200q, want %d called=%v with %.200q", tc.name, rec.Code, called, rec.Body, tc.wantCode, tc.wantCall, tc.wantBody)
		}
		if tc.err != nil && strings.Contains(rec.Body.String(), `"word"`) {
			t.Errorf("%s: the error answer also carries the result: %s", tc.name, rec.Body)
		}
	}
}

package feedbackapi

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"fixthis/app/errcode"
	"fixthis/app/httpapi"
)

type echoRequest struct {
	Word string `json:"word"`
}

// decodeAnswer calls do only with a body that decodes, and answers do's result or
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
		{"decoded and answered", `{"word":"hi"}`, httpapi.DecodeJSON, nil, 200, true, `{"word":"hi"}`},
		{"a body that does not decode", `{"word":`, httpapi.DecodeJSON, nil, 400, false, `"INVALID_INPUT`},
		{"a field of the wrong kind", `{"word":7}`, httpapi.DecodeJSON, nil, 400, false, `"INVALID_INPUT`},
		{"a NUL byte", "{\"word\":\"a\x00\"}", httpapi.DecodeJSON, nil, 400, false, `"INVALID_INPUT`},
		{"no body where one is required", ``, httpapi.DecodeJSON, nil, 400, false, `"INVALID_INPUT`},
		{"no body where it may be empty", ``, httpapi.DecodeOptionalJSON, nil, 200, true, `{"word":""}`},
		{"a megabyte field", `{"word":"` + strings.Repeat("w", 1<<20) + `"}`, httpapi.DecodeJSON, nil, 200, true, strings.Repeat("w", 1<<20)},
		{"a body over the bound", `{"word":"` + strings.Repeat("w", 33<<20) + `"}`, httpapi.DecodeJSON, nil, 413, false, `"PAYLOAD_TOO_LARGE`},
		{"do's error is the whole answer", `{"word":"hi"}`, httpapi.DecodeJSON, failed, 404, true, `SESSION_NOT_FOUND: no session \"s-1\"`},
	} {
		called := false
		rec := httptest.NewRecorder()
		decodeAnswer(rec, httptest.NewRequest("POST", "/", strings.NewReader(tc.body)), tc.decode, func(req echoRequest) (echoRequest, error) {
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

// An export is a download named after the session, or the error alone.
func TestWriteExport(t *testing.T) {
	rec := httptest.NewRecorder()
	writeExport(rec, "fixthis-s1.md", "text/markdown; charset=utf-8", []byte("# s1\n"), nil)
	if rec.Code != 200 || rec.Body.String() != "# s1\n" || rec.Header().Get("Content-Type") != "text/markdown; charset=utf-8" ||
		rec.Header().Get("Content-Disposition") != `attachment; filename="fixthis-s1.md"` {
		t.Errorf("export: %d %v %q", rec.Code, rec.Header(), rec.Body)
	}
	rec = httptest.NewRecorder()
	writeExport(rec, "fixthis-s1.json", "application/json; charset=utf-8", []byte("{}"), errors.New("disk gone"))
	var body httpapi.ErrorBody
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || rec.Code != 500 || rec.Header().Get("Content-Disposition") != "" {
		t.Errorf("failed export: %d %v %q (%v)", rec.Code, rec.Header(), rec.Body, err)
	}
}

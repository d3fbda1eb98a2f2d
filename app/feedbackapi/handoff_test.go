package feedbackapi

import (
	"encoding/json"
	"errors"
	"net/http/httptest"
	"testing"

	"fixthis/app/httpapi"
)

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

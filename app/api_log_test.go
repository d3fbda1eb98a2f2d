package app

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"fixthis/app/errcode"
	"fixthis/app/httpapi"
)

// TestServerErrorsAreLogged: 500, 503 and 507 answers are logged with their
// error, and the console token (query or header) never reaches the log.
func TestServerErrorsAreLogged(t *testing.T) {
	for _, code := range []errcode.Code{errcode.Internal, errcode.StorageReadOnly, errcode.StorageFull, errcode.NotFound} {
		var buf bytes.Buffer
		a := &App{log: slog.New(slog.NewTextHandler(&buf, nil))}
		h := a.logServerErrors(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			httpapi.WriteError(w, errcode.New(code, "what went wrong"))
		}))
		req := httptest.NewRequest("GET", "/api/events?consoleToken=sekrit-token", nil)
		req.Header.Set(ConsoleTokenHeader, "sekrit-token")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		logged := buf.String()
		if strings.Contains(logged, "sekrit") {
			t.Fatalf("%s: the token reached the log: %s", code, logged)
		}
		want := rec.Code >= 500
		if got := strings.Contains(logged, "what went wrong") && strings.Contains(logged, "status="); got != want {
			t.Fatalf("%s (%d): logged=%v, want %v: %q", code, rec.Code, got, want, logged)
		}
	}
}

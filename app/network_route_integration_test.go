package app

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"fixthis/app/feedbackapi"
)

// The demo app's calls, logged on the simulated phone as OkHttp's interceptor
// logs them, reach the item's Network route after Save to MCP under Auto: the
// 500 and the timeout as failed, the 1,240 ms image as slow. Nothing secret
// the app logged with them (a key in a query, a bearer token, a cookie)
// reaches the answer, and the route wants the console token like every other.
func TestItemNetworkRouteAfterSaveToMCP(t *testing.T) {
	e, sid, itemID := newSavedItem(t, "network")
	secrets := []string{"AIzaSy", "eyJhbGci", "tok-9f8e7d6c5b4a", "c00kie-v4lue"}
	logOkHttp(t, e,
		"--> GET https://api.trailhead.test/v1/me?access_token=tok-9f8e7d6c5b4a",
		"Cookie: session=c00kie-v4lue",
		"--> END GET",
		"<-- 401 Unauthorized https://api.trailhead.test/v1/me?access_token=tok-9f8e7d6c5b4a (12ms)",
		"Set-Cookie: session=c00kie-v4lue; HttpOnly",
		"<-- END HTTP",
	)
	e.saveToMCPAfterDemoCalls(sid)

	doc, body := e.itemNetwork(sid, itemID)
	got := map[string]string{}
	for _, c := range doc.Requests {
		got[c.Method+" "+c.URL] = callOutcome(c)
	}
	want := map[string]string{
		"GET https://api.trailhead.test/v1/trails?[REDACTED]":  "200 182ms",
		"GET https://cdn.trailhead.test/covers/42.jpg":         "200 1240ms slow",
		"POST https://api.trailhead.test/v1/favourites":        "500 231ms",
		"GET https://api.trailhead.test/v1/weather?[REDACTED]": "failed java.net.SocketTimeoutException: timeout",
		"GET https://api.trailhead.test/v1/me?[REDACTED]":      "401 12ms",
	}
	for call, outcome := range want {
		if got[call] != outcome {
			t.Errorf("%s: %q, want %q (all: %v)", call, got[call], outcome, got)
		}
	}
	if doc.Status != "complete" || doc.Failed != 3 || doc.Slow != 1 || doc.CaptureID == "" {
		t.Errorf("doc %+v", doc)
	}
	noSecretIn(t, "the answer", body, secrets)

	// Served, the route is behind the console guard like the rest of /api.
	guarded := consoleGuard{token: "console-token", mcpToken: "mcp-token", ownOrigins: func() []string { return nil }}.wrap(e.app.APIHandler())
	path := "/api/items/" + itemID + "/network?sessionId=" + sid
	for _, tc := range []struct {
		name, token string
		want        int
	}{{"no token", "", http.StatusUnauthorized}, {"wrong token", "nope", http.StatusUnauthorized},
		{"the MCP token", "mcp-token", http.StatusForbidden}, {"the console token", "console-token", http.StatusOK}} {
		req := httptest.NewRequest("GET", "http://127.0.0.1"+path, nil)
		if tc.token != "" {
			req.Header.Set(ConsoleTokenHeader, tc.token)
		}
		rec := httptest.NewRecorder()
		guarded.ServeHTTP(rec, req)
		if rec.Code != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, rec.Code, tc.want)
		}
	}
}

// callOutcome is a call's status, time and failure in a few words.
func callOutcome(c feedbackapi.NetworkCall) string {
	var parts []string
	if c.Failed {
		parts = append(parts, "failed", c.Error)
	} else {
		parts = append(parts, fmt.Sprint(c.Status))
	}
	if c.DurationMs != nil {
		parts = append(parts, fmt.Sprintf("%dms", *c.DurationMs))
	}
	if c.Slow {
		parts = append(parts, "slow")
	}
	return strings.Join(parts, " ")
}

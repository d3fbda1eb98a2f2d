package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fixthis/adb"
	"fixthis/app/feedbackapi"
)

// OkHttp lines written on the simulated phone with Android's `log` command,
// through the real adb server, become the item's calls after Save to MCP:
// each `log` runs as a process of its own, so the lines come from pids that
// are not the app's and are read as one writer under OkHttp's tag. The
// prompt names the failed ones (three, then a count); no token, cookie or key
// from those lines reaches the answer, the prompt or any file of the project.
func TestLogWrittenCallsBecomeTheItemsRequests(t *testing.T) {
	e, sid, itemID := newSavedItem(t, "log")
	secrets := []string{"tok-7c1d2e3f4a5b", "c00kie-1og-v4lue", "AIzaSyLogWrittenKey000000000000000000", "hunter2log"}
	sh := e.client.Device(e.sim.Serial())
	for _, line := range []string{
		"--> POST https://api.trailhead.test/v1/orders?api_key=AIzaSyLogWrittenKey000000000000000000 (42-byte body)",
		"Authorization: Bearer tok-7c1d2e3f4a5b",
		"Cookie: sid=c00kie-1og-v4lue",
		`{"password":"hunter2log"}`,
		"--> END POST (42-byte body)",
		"<-- 503 Service Unavailable https://api.trailhead.test/v1/orders?api_key=AIzaSyLogWrittenKey000000000000000000 (1450ms)",
		"<-- END HTTP",
		"--> GET https://api.trailhead.test/v1/profile",
		"<-- HTTP FAILED: java.net.SocketTimeoutException: timeout",
	} {
		res, err := sh.Shell(context.Background(), adb.Command("log", "-p", "i", "-t", "okhttp.OkHttpClient", "--", line))
		if err != nil || res.ExitCode != 0 {
			t.Fatalf("log %q: %v %+v", line, err, res)
		}
	}
	ho := e.saveToMCPAfterDemoCalls(sid)

	doc, body := e.itemNetwork(sid, itemID)
	got := map[string]feedbackapi.NetworkCall{}
	for _, c := range doc.Requests {
		got[c.Method+" "+c.URL] = c
	}
	order, ok := got["POST https://api.trailhead.test/v1/orders?[REDACTED]"]
	if !ok || callOutcome(order) != "503 1450ms slow" || order.Time == "" || !strings.Contains(order.Note, "not the app's") {
		t.Errorf("the POST: %+v (all %+v)", order, doc.Requests)
	}
	profile, ok := got["GET https://api.trailhead.test/v1/profile"]
	if !ok || callOutcome(profile) != "failed java.net.SocketTimeoutException: timeout" {
		t.Errorf("the GET: %+v (all %+v)", profile, doc.Requests)
	}
	// The prompt names three failed calls in time order and counts the rest.
	if !strings.Contains(ho.Prompt, "POST api.trailhead.test/v1/orders 503 1450 ms") || doc.Failed != 4 {
		t.Errorf("the prompt does not name the failed calls:\n%s", ho.Prompt)
	}
	handoff, _ := json.Marshal(ho)
	noSecretIn(t, "the answer", body, secrets)
	noSecretIn(t, "the handoff", handoff, secrets)
	noSecretInFiles(t, e.projectDir, secrets)
}

// newSavedItem is a test app with a session of that title and one item saved
// on a frozen screen of the demo app.
func newSavedItem(t *testing.T, title string) (e *testEnv, sessionID, itemID string) {
	t.Helper()
	e = newTestEnv(t)
	sessionID = e.createSession(title)
	_, saved, _ := e.saveDrafts(sessionID)
	return e, sessionID, saved.Items[0].ItemID
}

// logOkHttp writes lines to the simulated phone's log as the demo app's OkHttp
// logging interceptor does.
func logOkHttp(t *testing.T, e *testEnv, lines ...string) {
	t.Helper()
	for _, line := range lines {
		if err := e.sim.AppLog("I", "okhttp.OkHttpClient", line); err != nil {
			t.Fatal(err)
		}
	}
}

// saveToMCPAfterDemoCalls is Save to MCP once the demo app's own calls have ended,
// so the capture under Auto sees every one of them.
func (e *testEnv) saveToMCPAfterDemoCalls(sessionID string) feedbackapi.AgentHandoff {
	e.t.Helper()
	time.Sleep(1800 * time.Millisecond) // the demo's slowest call ends 1,620 ms after the app starts
	return e.saveToMCP(sessionID)
}

// itemNetwork is the item's Network route, decoded and as it was sent.
func (e *testEnv) itemNetwork(sessionID, itemID string) (feedbackapi.NetworkDoc, []byte) {
	e.t.Helper()
	var doc feedbackapi.NetworkDoc
	r := e.mustJSON("GET", "/api/items/"+itemID+"/network?sessionId="+sessionID, nil, &doc)
	return doc, r.Body
}

// noSecretIn fails when text, which is what, holds one of secrets.
func noSecretIn(t *testing.T, what string, text []byte, secrets []string) {
	t.Helper()
	for _, s := range secrets {
		if strings.Contains(string(text), s) {
			t.Errorf("%q reached %s", s, what)
		}
	}
}

// noSecretInFiles fails when any file under dir holds one of secrets; it returns
// how many files it read.
func noSecretInFiles(t *testing.T, dir string, secrets []string) int {
	t.Helper()
	files := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		noSecretIn(t, path, b, secrets)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// Capture with bodies keeps the bodies the app logged for that capture only,
// redacted: the password, token and e-mail planted in them reach neither the
// answer nor any file, the rest of the text does; the next plain capture
// keeps none. The demo app's own interceptor logs at BODY level, so its 500
// carries the server's error with the session token taken out.
func TestCaptureWithBodies(t *testing.T) {
	e, sid, itemID := newSavedItem(t, "bodies")
	secrets := []string{"hunter2body", "tok-b0dy-5ecret", "ana.lopez@example.com", "st_9f2c41d87ab3e605"}
	time.Sleep(1800 * time.Millisecond) // the demo's slowest call ends 1,620 ms after the app starts
	logOkHttp(t, e,
		"--> POST https://api.trailhead.test/v1/login (61-byte body)",
		"Content-Type: application/json",
		"",
		`{"user":"ana.lopez@example.com","password":"hunter2body","keep":true}`,
		"--> END POST (61-byte body)",
		"<-- 403 Forbidden https://api.trailhead.test/v1/login (88ms)",
		"",
		`{"error":"locked out","token":"tok-b0dy-5ecret"}`,
		"<-- END HTTP (48-byte body)",
	)
	capture := func(bodies bool) (login, favourites feedbackapi.NetworkCall, body []byte) {
		e.mustJSON("POST", "/api/items/"+itemID+"/runtime-evidence/collect", map[string]any{"sessionId": sid, "bodies": bodies}, nil)
		doc, body := e.itemNetwork(sid, itemID)
		for _, c := range doc.Requests {
			switch c.URL {
			case "https://api.trailhead.test/v1/login":
				login = c
			case "https://api.trailhead.test/v1/favourites":
				favourites = c
			}
		}
		if login.Status == 0 || favourites.Status == 0 {
			t.Fatalf("no login or favourites call in %+v", doc.Requests)
		}
		return login, favourites, body
	}
	c, fav, body := capture(true)
	if c.Status != 403 || c.RequestBody != `{"user":"[REDACTED]","password":"[REDACTED]","keep":true}` || c.ResponseBody != `{"error":"locked out","token":"[REDACTED]"}` {
		t.Errorf("with bodies: %+v", c)
	}
	if fav.RequestBody != `{"trailId":42,"favourite":true}` || fav.ResponseBody != `{"error":"database is locked","retryAfterMs":500,"sessionToken":"[REDACTED]"}` {
		t.Errorf("the demo's 500 with bodies: %+v", fav)
	}
	noSecretIn(t, "the answer", body, secrets)
	if c, fav, _ := capture(false); c.RequestBody != "" || c.ResponseBody != "" || c.Status != 403 || fav.ResponseBody != "" {
		t.Errorf("a plain capture kept bodies: %+v %+v", c, fav)
	}
	noSecretInFiles(t, e.projectDir, secrets)
}

// The demo app's calls, logged on the simulated phone as OkHttp's interceptor
// logs them, reach the item's Network route after Save to MCP under Auto: the
// 500 and the timeout as failed, the 1,240 ms image as slow. Nothing secret
// the app logged with them (a key in a query, a bearer token, a cookie)
// reaches the answer, and the route wants the console token like every other.
func TestItemNetworkRouteAfterSaveToMCP(t *testing.T) {
	e, sid, itemID := newSavedItem(t, "network")
	secrets := []string{"AIzaSy", "eyJhbGci", "tok-9f8e7d6c5b4a", "c00kie-v4lue", "st_9f2c41d87ab3e605", "database is locked"}
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

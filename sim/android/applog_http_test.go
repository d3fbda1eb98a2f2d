package android

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"fixthis/sim/scenario"
)

// The demo app's calls land in logcat under OkHttp's tag from dispatcher
// threads of the app's process, in HttpLoggingInterceptor's lines, and the
// failing one ends in HTTP FAILED.
func TestDemoAppLogsItsCalls(t *testing.T) {
	d := demoDevice(t)
	pid := d.appPid()
	if pid == 0 {
		t.Fatal("the demo app is not running")
	}
	time.Sleep(1800 * time.Millisecond) // the slowest demo call ends 1,620 ms after the start
	out, _ := run(d, "logcat -d -s okhttp.OkHttpClient")
	for _, want := range []string{
		"I okhttp.OkHttpClient: --> GET https://api.trailhead.test/v1/trails?page=1",
		"I okhttp.OkHttpClient: <-- 200 OK https://api.trailhead.test/v1/trails?page=1 (182ms)",
		"I okhttp.OkHttpClient: Content-Length: 31",
		`I okhttp.OkHttpClient: {"trailId":42,"favourite":true}`,
		"I okhttp.OkHttpClient: --> END POST (31-byte body)",
		`I okhttp.OkHttpClient: {"error":"database is locked","retryAfterMs":500,"sessionToken":"st_9f2c41d87ab3e605"}`,
		"I okhttp.OkHttpClient: <-- END HTTP (86-byte body)",
		"I okhttp.OkHttpClient: <-- END HTTP (binary 48213-byte body omitted)",
		"I okhttp.OkHttpClient: <-- 500 Internal Server Error https://api.trailhead.test/v1/favourites (231ms)",
		"I okhttp.OkHttpClient: <-- HTTP FAILED: java.net.SocketTimeoutException: timeout",
		"I okhttp.OkHttpClient: content-type: image/jpeg",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("logcat lacks %q:\n%s", want, out)
		}
	}
	threads := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if m := threadtimeLine.FindStringSubmatch(l); m != nil {
			if m[1] != strconv.Itoa(pid) {
				t.Errorf("a call logged from pid %s, want the app's %d: %s", m[1], pid, l)
			}
			threads[m[2]] = true
		}
	}
	if len(threads) != len(d.profile.App.HTTP) {
		t.Errorf("calls ran on %d threads, want one each (%d)", len(threads), len(d.profile.App.HTTP))
	}
}

// At HEADERS level (the interceptor's other common setting) no body is logged and
// the end lines carry no size; at BODY level an empty body ends "(0-byte body)".
func TestHTTPLinesByLevel(t *testing.T) {
	post := scenario.HTTPCall{Method: "POST", URL: "https://a.test/x", Status: 201, Message: "Created", TookMs: 9,
		ContentType: "application/json", RequestBody: `{"a":1}`}
	for _, tc := range []struct {
		level string
		want  []string
	}{
		{scenario.HTTPLevelHeaders, []string{"--> POST https://a.test/x", "Content-Type: application/json; charset=utf-8", "Content-Length: 7", "--> END POST",
			"<-- 201 Created https://a.test/x (9ms)", "content-type: application/json", "<-- END HTTP"}},
		{scenario.HTTPLevelBody, []string{"--> POST https://a.test/x", "Content-Type: application/json; charset=utf-8", "Content-Length: 7", "", `{"a":1}`, "--> END POST (7-byte body)",
			"<-- 201 Created https://a.test/x (9ms)", "content-type: application/json", "<-- END HTTP (0-byte body)"}},
	} {
		got := append(okHTTPRequestLines(post, tc.level), okHTTPResponseLines(post, tc.level)...)
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", tc.level, got, tc.want)
		}
	}
}

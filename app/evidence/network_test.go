package evidence

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fixthis/app/evidence/network"
)

// The network collector reads the app's OkHttp lines over the network
// window, stores every call 0600 beside the other evidence, and carries the
// failed and slow ones first; nothing secret reaches the summary, the
// attachment or the file.
func TestNetworkCollector(t *testing.T) {
	sh := fakeShell{answers: map[string]fakeAnswer{
		"pidof ":           {out: "4120\n"},
		"logcat ":          {out: readTestdata(t, interleavedLog)},
		"dumpsys gfxinfo ": {out: readTestdata(t, "gfxinfo_api34.txt")},
		"dumpsys meminfo ": {out: readTestdata(t, "meminfo_api34.txt")},
	}}
	st := testStore(t)
	a := Collect(context.Background(), sh, Request{Serial: "s", Package: "com.fixthis.demo", Store: st, SessionID: "s1", CaptureID: "c1"})
	at := a.Attachment(KindNetwork)
	n := at.Network
	if at.Status != StatusComplete || n == nil || n.Total != 4 || n.Failed != 3 || n.Slow != 1 {
		t.Fatalf("network attachment %+v %+v", at, n)
	}
	want := "4 HTTP calls, 3 failed, 1 slow: POST api.demo.test/v1/favourites 500; " +
		"GET api.demo.test/v1/profile SocketTimeoutException; GET api.demo.test/v1/recommendations no response"
	if at.Summary != want {
		t.Errorf("summary %q\nwant    %q", at.Summary, want)
	}
	if r := n.Requests[1]; r.URL != "https://cdn.demo.test/covers/812.jpg?[REDACTED]" || !r.Slow() || r.Bad() {
		t.Errorf("the slow call is not second (time order among notable calls): %+v", n.Requests)
	}
	if len(n.Notes) != 1 || n.Notes[0] != "1 call with no answer: still waiting when the log was read, or the answer was not logged" {
		t.Errorf("notes %q", n.Notes)
	}
	if at.Artifact != ".fixthis/runtime-evidence/s1/c1/network.json" {
		t.Errorf("artifact %q", at.Artifact)
	}
	path := filepath.Join(st.Root, "s1", "c1", "network.json")
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("network.json: %v %v", fi, err)
	}
	raw, _ := os.ReadFile(path)
	var stored network.Result
	if err := json.Unmarshal(raw, &stored); err != nil || len(stored.Requests) != 4 {
		t.Fatalf("stored %v: %s", err, raw)
	}
	everything, _ := json.Marshal(a)
	for _, s := range networkSecrets {
		if strings.Contains(string(raw), s) || strings.Contains(string(everything), s) {
			t.Errorf("%q reached the evidence", s)
		}
	}
}

// The app's processes count, and so do lines under OkHttp's own tags from a
// process that is not another app's (`adb shell log -t okhttp.OkHttpClient`),
// marked as such; another app's calls, and lines under other tags from other
// processes, do not.
func TestNetworkCollectorKeepsTheAppsCalls(t *testing.T) {
	log := "12-01 09:41:09.000  1423  1530 I ActivityManager: Start proc 7777:com.example.weather/u0a99 for service\n" +
		"12-01 09:41:10.113  4120  4181 I okhttp.OkHttpClient: --> GET https://app.test/mine\n" +
		"12-01 09:41:10.113  7777  7790 I okhttp.OkHttpClient: --> GET https://weather.test/theirs\n" +
		"12-01 09:41:10.114  9999  9999 I Retrofit: --> GET https://other.test/untagged\n" +
		"12-01 09:41:10.115 20314 20314 I okhttp.OkHttpClient: --> POST https://shell.test/v1/orders?token=abc123\n" +
		"12-01 09:41:10.116 20315 20315 I okhttp.OkHttpClient: Authorization: Bearer s3cr3t-t0ken-value\n" +
		// Another app, started before the window, logging with OkHttp: two lines from one
		// process, so not a `log` command's.
		"12-01 09:41:10.116  8888  8901 I OkHttp  : --> GET https://bank.test/v1/accounts/123456\n" +
		"12-01 09:41:10.190  8888  8901 I OkHttp  : <-- 200 OK https://bank.test/v1/accounts/123456 (74ms)\n" +
		"12-01 09:41:10.117 20317 20317 I okhttp.OkHttpClient: <-- HTTP FAILED: java.net.UnknownHostException: shell.test\n" +
		"12-01 09:41:10.213  4120  4181 I okhttp.OkHttpClient: <-- 200 OK https://app.test/mine (100ms)\n"
	sh := fakeShell{answers: map[string]fakeAnswer{"pidof ": {out: "4120\n"}, "logcat ": {out: log}}}
	_, at := runNetwork(context.Background(), sh, Request{Package: "com.fixthis.demo", WebViewNote: "the DevTools socket did not answer\nin 2 s"})
	n := at.Network
	if n == nil || n.Total != 2 {
		t.Fatalf("network %+v", n)
	}
	got := []string{}
	for _, r := range n.Requests {
		got = append(got, fmt.Sprintf("%s %s %d failed=%v other=%v pid=%d", r.Method, r.URL, r.Status, r.Failed, r.OtherProcess, r.Pid))
	}
	want := []string{
		"POST https://shell.test/v1/orders?[REDACTED] 0 failed=true other=true pid=20314",
		"GET https://app.test/mine 200 failed=false other=false pid=4120",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("requests\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if all, _ := json.Marshal(at); strings.Contains(string(all), "s3cr3t") || strings.Contains(string(all), "abc123") || strings.Contains(string(all), "bank.test") {
		t.Errorf("a secret reached the attachment: %s", all)
	}
	if r := n.Requests[0]; r.Error != "java.net.UnknownHostException: shell.test" {
		t.Errorf("the failure line another log process wrote was not paired with its call: %+v", r)
	}
	if len(n.Notes) != 1 || n.Notes[0] != "WebView: the DevTools socket did not answer in 2 s" {
		t.Errorf("notes %q", n.Notes)
	}
}

// What the log could not tell is said, not guessed.
func TestNetworkNotes(t *testing.T) {
	res := network.ParseLines([]string{
		"12-01 09:41:10.113  4120  4181 I OkHttp  : <-- 200 OK https://a.test/x (3ms)",
		"12-01 09:41:10.114  4120  4182 I OkHttp  : <-- 200 OK https://a.test/y (3ms)",
	})
	res.Dropped = 7
	n := summarizeNetwork(res)
	want := []string{"2 calls with only the answer: the request had rotated out of the log", "7 older calls left out: only the newest 500 are read"}
	if strings.Join(n.Notes, "|") != strings.Join(want, "|") || n.Total != 9 {
		t.Errorf("notes %q (total %d)", n.Notes, n.Total)
	}
}

func TestNetworkWindow(t *testing.T) {
	now := time.Date(2026, 12, 3, 14, 0, 0, 0, time.UTC)
	freeze := now.Add(-10 * time.Second)
	for _, tc := range []struct {
		req  Request
		want time.Time
	}{
		{Request{Freeze: freeze, Since: freeze.Add(-DefaultLookback)}, freeze.Add(-time.Minute)},
		{Request{Since: freeze.Add(-DefaultLookback)}, freeze.Add(-time.Minute)},
		{Request{}, now.Add(-time.Minute)},
	} {
		if got := networkSince(tc.req, now); !got.Equal(tc.want) {
			t.Errorf("networkSince(%+v) = %v, want %v", tc.req, got, tc.want)
		}
	}
	// The shared read starts at the earlier of the two windows.
	if got := logWindow(Request{Freeze: freeze, Since: freeze.Add(-DefaultLookback)}, now); !got.Equal(freeze.Add(-NetworkLookback)) {
		t.Errorf("logWindow = %v", got)
	}
	if got := logWindow(Request{Freeze: freeze, Since: freeze.Add(-5 * time.Minute)}, now); !got.Equal(freeze.Add(-5 * time.Minute)) {
		t.Errorf("logWindow with an earlier Since = %v", got)
	}
}

func TestShortCall(t *testing.T) {
	d := int64(1516)
	for _, tc := range []struct {
		r    network.Request
		want string
	}{
		{network.Request{Method: "POST", URL: "https://a.test/v1/fav?[REDACTED]", Status: 500}, "POST a.test/v1/fav 500"},
		{network.Request{Method: "GET", URL: "https://a.test/c.jpg", Status: 200, DurationMs: &d}, "GET a.test/c.jpg 200 1516 ms"},
		{network.Request{Method: "GET", URL: "https://a.test/p", Failed: true, Error: "java.net.SocketTimeoutException: timeout"}, "GET a.test/p SocketTimeoutException"},
		{network.Request{Method: "GET", URL: "https://a.test/p", Failed: true, Error: network.NoResponse}, "GET a.test/p no response"},
		{network.Request{Failed: true, Error: "CustomError[BAD REQUEST]", Partial: true}, "? (unknown URL) failed"},
	} {
		if got := ShortCall(tc.r); got != tc.want {
			t.Errorf("ShortCall(%+v) = %q, want %q", tc.r, got, tc.want)
		}
	}
}

// The logcat attachment keeps the lines of the app's other processes (a
// secondary process the system log names), though the system line that names it
// is not among the app's lines the shared read hands on.
func TestLogcatKeepsTheAppsOtherProcesses(t *testing.T) {
	log := "12-01 09:41:09.000  1423  1530 I ActivityManager: Start proc 5555:com.fixthis.demo:sync/u0a99 for service\n" +
		"12-01 09:41:10.113  5555  5560 E SyncWorker: sync failed\n" +
		"12-01 09:41:10.213  4120  4181 I MainActivity: resumed\n"
	sh := fakeShell{answers: map[string]fakeAnswer{"pidof ": {out: "4120\n"}, "logcat ": {out: log}}}
	raw, at := runLogcat(context.Background(), sh, Request{Package: "com.fixthis.demo"})
	if !strings.Contains(raw, "sync failed") || !strings.Contains(raw, "resumed") {
		t.Errorf("the app's lines %q", raw)
	}
	if at.Logcat == nil || !slices.Contains(at.Logcat.Pids, 5555) {
		t.Errorf("summary %+v", at.Logcat)
	}
}

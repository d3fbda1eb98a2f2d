package android

import (
	"strconv"
	"strings"
	"testing"
	"time"
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
		"I okhttp.OkHttpClient: Content-Length: 27",
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

// The app's HTTP calls as its debug build logs them.
package android

import (
	"fmt"
	"time"

	"fixthis/sim/scenario"
)

// okHTTPTag and okHTTPLevel are where OkHttp 4's HttpLoggingInterceptor lands
// on Android with its default logger: Platform.log goes through AndroidLog
// (okhttp/src/main/kotlin/okhttp3/internal/platform/android/AndroidLog.kt),
// which maps the okhttp3.OkHttpClient logger to this tag at INFO.
const (
	okHTTPTag   = "okhttp.OkHttpClient"
	okHTTPLevel = "I"
)

// okHTTPFirstThread is the tid of the app's first OkHttp dispatcher thread
// (after its main, render and binder threads); each call runs on its own.
const okHTTPFirstThread = 31

// startAppHTTP schedules the calls a freshly started process of the app
// makes. Each writes its request lines when it starts and its answer when it
// ends, from a dispatcher thread of that process, as long as the process is
// still the one that made it.
func (d *Device) startAppHTTP(pid int) {
	for i, c := range d.profile.App.HTTP {
		tid := pid + okHTTPFirstThread + i
		time.AfterFunc(time.Duration(c.AfterMs)*time.Millisecond, func() {
			if !d.logFromProcess(pid, tid, okHTTPRequestLines(c)) {
				return
			}
			time.AfterFunc(time.Duration(c.TookMs)*time.Millisecond, func() {
				d.logFromProcess(pid, tid, okHTTPResponseLines(c))
			})
		})
	}
}

// logFromProcess writes lines from a thread of pid if pid is still the app's
// running process, and reports whether it was.
func (d *Device) logFromProcess(pid, tid int, lines []string) bool {
	d.proc.mu.Lock()
	alive := d.proc.pid == pid
	d.proc.mu.Unlock()
	if !alive {
		return false
	}
	for _, l := range lines {
		d.logTo("main", okHTTPLevel, okHTTPTag, pid, tid, l)
	}
	return true
}

// okHTTPRequestLines are HttpLoggingInterceptor.intercept's lines for a
// request at HEADERS level, installed as an application interceptor (no
// connection, so no protocol on the start line): the start line, the body's
// Content-Type and Content-Length, the headers, the end line.
func okHTTPRequestLines(c scenario.HTTPCall) []string {
	lines := []string{fmt.Sprintf("--> %s %s", c.Method, c.URL)}
	if c.RequestBytes > 0 {
		lines = append(lines, "Content-Type: application/json; charset=utf-8", fmt.Sprintf("Content-Length: %d", c.RequestBytes))
	}
	if c.Auth != "" {
		lines = append(lines, "Authorization: "+c.Auth)
	}
	return append(lines, "--> END "+c.Method)
}

// okHTTPResponseLines are its lines for the answer: the status line with the
// time taken, the response headers and `<-- END HTTP`; or for a call that
// threw, `<-- HTTP FAILED: <exception>`.
func okHTTPResponseLines(c scenario.HTTPCall) []string {
	if c.Fail != "" {
		return []string{"<-- HTTP FAILED: " + c.Fail}
	}
	status := fmt.Sprint(c.Status)
	if c.Message != "" {
		status += " " + c.Message
	}
	lines := []string{fmt.Sprintf("<-- %s %s (%dms)", status, c.URL, c.TookMs)}
	if c.ContentType != "" {
		lines = append(lines, "content-type: "+c.ContentType)
	}
	if c.Bytes > 0 {
		lines = append(lines, fmt.Sprintf("content-length: %d", c.Bytes))
	}
	return append(lines, "<-- END HTTP")
}

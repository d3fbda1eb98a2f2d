// The app's HTTP calls as its debug build logs them.
package android

import (
	"fmt"
	"strings"
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
			if !d.logFromProcess(pid, tid, okHTTPRequestLines(c, d.profile.App.HTTPLevel)) {
				return
			}
			time.AfterFunc(time.Duration(c.TookMs)*time.Millisecond, func() {
				d.logFromProcess(pid, tid, okHTTPResponseLines(c, d.profile.App.HTTPLevel))
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
// request, installed as an application interceptor (no connection, so no
// protocol on the start line): the start line, the body's Content-Type and
// Content-Length, the headers, the end line. At BODY level a body sent follows an
// empty line and the end line gives its size (HttpLoggingInterceptor.kt at
// square/okhttp 02e3fde, intercept(), lines 190-212).
func okHTTPRequestLines(c scenario.HTTPCall, level string) []string {
	lines := []string{fmt.Sprintf("--> %s %s", c.Method, c.URL)}
	size := c.RequestSize()
	if size > 0 {
		lines = append(lines, "Content-Type: application/json; charset=utf-8", fmt.Sprintf("Content-Length: %d", size))
	}
	if c.Auth != "" {
		lines = append(lines, "Authorization: "+c.Auth)
	}
	if level != scenario.HTTPLevelBody || size == 0 {
		return append(lines, "--> END "+c.Method)
	}
	// A body is logged as one message; AndroidLog splits it at its line breaks.
	lines = append(lines, "")
	lines = append(lines, strings.Split(c.RequestBody, "\n")...)
	return append(lines, fmt.Sprintf("--> END %s (%d-byte body)", c.Method, size))
}

// okHTTPResponseLines are its lines for the answer: the status line with the
// time taken, the response headers and `<-- END HTTP`; or for a call that
// threw, `<-- HTTP FAILED: <exception>`. At BODY level a text body follows an
// empty line and the end line gives its size; a binary one is omitted and only
// sized (the same file, lines 239-275).
func okHTTPResponseLines(c scenario.HTTPCall, level string) []string {
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
	size := c.ResponseSize()
	if size > 0 {
		lines = append(lines, fmt.Sprintf("content-length: %d", size))
	}
	switch {
	case level != scenario.HTTPLevelBody:
		return append(lines, "<-- END HTTP")
	case !textual(c.ContentType):
		return append(lines, "", fmt.Sprintf("<-- END HTTP (binary %d-byte body omitted)", size))
	case size == 0:
		return append(lines, "<-- END HTTP (0-byte body)")
	}
	lines = append(lines, "")
	lines = append(lines, strings.Split(c.ResponseBody, "\n")...)
	return append(lines, fmt.Sprintf("<-- END HTTP (%d-byte body)", size))
}

// textual reports whether a body of this type is text, as OkHttp's
// isProbablyUtf8 finds for JSON and text but not for an image's bytes.
func textual(contentType string) bool {
	return contentType == "" || strings.HasPrefix(contentType, "text/") || strings.Contains(contentType, "json") || strings.Contains(contentType, "xml")
}

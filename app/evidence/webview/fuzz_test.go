package webview

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzHandle feeds DevTools messages from nowhere into a watcher: it never
// panics, keeps its bound, and carries nothing unprintable out.
func FuzzHandle(f *testing.F) {
	for _, s := range []string{
		`{"method":"Network.requestWillBeSent","params":{"requestId":"1","timestamp":1.5,"wallTime":1733046070.1,"request":{"url":"https://a.test/x","method":"GET"}}}`,
		`{"method":"Network.responseReceived","params":{"requestId":"1","response":{"status":404,"mimeType":"text/html"}}}`,
		`{"method":"Network.loadingFinished","params":{"requestId":"1","timestamp":1.75,"encodedDataLength":1e300}}`,
		`{"method":"Network.loadingFailed","params":{"requestId":"1","timestamp":-1,"errorText":"net::ERR_FAILED\u0000","canceled":true}}`,
		`{"method":"Network.requestWillBeSent","params":{"requestId":"","request":null}}`,
		`{"id":1,"result":{}}`, `[]`, `{"method":"Network.x","params":7}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		w := &Watcher{calls: map[string]*call{}}
		for _, part := range strings.Split(in, "\n") {
			var m message
			if json.Unmarshal([]byte(part), &m) == nil {
				w.handle("0", m)
			}
		}
		rs := w.Requests()
		if len(rs) > MaxRequests {
			t.Fatalf("%d requests", len(rs))
		}
		for _, r := range rs {
			for _, s := range []string{r.Method, r.URL, r.Error, r.ContentType, r.Time} {
				if len(s) > maxURL || strings.IndexFunc(s, func(c rune) bool { return c < ' ' || c == 0x7f }) >= 0 {
					t.Fatalf("field %q", s)
				}
			}
			if r.DurationMs != nil && *r.DurationMs < 0 {
				t.Fatalf("duration %d", *r.DurationMs)
			}
		}
	})
}

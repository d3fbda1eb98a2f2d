package evidence

import (
	"strings"
	"testing"

	"fixthis/app/evidence/network"
)

// networkSecrets are every key, token, cookie and body in the interleaved
// OkHttp sample; none may survive redaction, in the log or in what the
// network parser reads from it.
var networkSecrets = []string{
	"AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW",      // Google API key in a query
	"9f86d081884c7d659a2feaa0c55ad015",             // a URL signature
	"1733046070",                                   // the signed URL's other parameter
	"eyJhbGciOiJIUzI1NiJ9",                         // a JWT bearer token
	"7c4a8d09ca3762af61e59520943dc26494f8941b",     // Cookie
	"theme=dark",                                   // ...all of it
	"1f2e3d4c5b6a79881f2e3d4c5b6a7988",             // Set-Cookie
	"YWxpY2U6czNjcmV0",                             // Proxy-Authorization: Basic
	"hunter2", "itemId", "db locked", "tok_5ecr3t", // request and response bodies
}

func TestRedactHTTPLogs(t *testing.T) {
	out := Redact(readTestdata(t, interleavedLog))
	checkRedacted(t, out, networkSecrets, []string{
		"Authorization: Bearer [REDACTED]", "Proxy-Authorization: Basic [REDACTED]", "Cookie: [REDACTED]",
		"--> POST https://api.demo.test/v1/favourites?[REDACTED] h2", "--> END POST (52-byte body)",
		"<-- 500 Internal Server Error", "content-type: image/jpeg", "<-- END HTTP (41-byte body)",
		"OkHttp  : <-- HTTP FAILED: java.net.SocketTimeoutException: timeout",
	})
	res := network.Parse(out)
	for _, r := range res.Requests {
		for _, s := range networkSecrets {
			if strings.Contains(r.URL+r.Error+r.ContentType, s) {
				t.Errorf("%q reached a request: %+v", s, r)
			}
		}
	}
}

// TestRedactHTTPBodies holds the body rules line by line: what opens and
// closes a body, per writer, and what is never taken for one.
func TestRedactHTTPBodies(t *testing.T) {
	const h1 = "12-01 09:41:10.113  4120  4181 D OkHttp  : "
	const h2 = "12-01 09:41:10.113  4120  4182 D OkHttp  : "
	for _, tc := range []struct{ name, in, want string }{
		{"okhttp request body", h1 + "--> POST https://a.test/x\n" + h1 + "Content-Type: text/plain\n" + h1 + "\n" + h1 + "name=Ann\n" + h1 + "line two\n" + h1 + "--> END POST (8-byte body)",
			h1 + "--> POST https://a.test/x\n" + h1 + "Content-Type: text/plain\n" + h1 + "\n" + h1 + Redacted + "\n" + h1 + Redacted + "\n" + h1 + "--> END POST (8-byte body)"},
		{"okhttp response body", h1 + "<-- 200 OK https://a.test/x (3ms)\n" + h1 + "\n" + h1 + "[1,2]\n" + h1 + "<-- END HTTP (5-byte body)",
			h1 + "<-- 200 OK https://a.test/x (3ms)\n" + h1 + "\n" + h1 + Redacted + "\n" + h1 + "<-- END HTTP (5-byte body)"},
		{"another thread is not body", h1 + "--> POST https://a.test/x\n" + h1 + "\n" + h2 + "--> GET https://a.test/y\n" + h2 + "Accept: */*\n" + h1 + "secret stuff",
			h1 + "--> POST https://a.test/x\n" + h1 + "\n" + h2 + "--> GET https://a.test/y\n" + h2 + "Accept: */*\n" + h1 + Redacted},
		{"a new call ends a body that had no END", h1 + "--> GET https://a.test/x\n" + h1 + "\n" + h1 + "x\n" + h1 + "<-- 204 https://a.test/x (1ms)\n" + h1 + "Date: today",
			h1 + "--> GET https://a.test/x\n" + h1 + "\n" + h1 + Redacted + "\n" + h1 + "<-- 204 https://a.test/x (1ms)\n" + h1 + "Date: today"},
		{"ktor body", "BODY Content-Type: text/plain\nBODY START\nhome page\n\nBODY END\nRESPONSE: 200 OK",
			"BODY Content-Type: text/plain\nBODY START\n" + Redacted + "\n\nBODY END\nRESPONSE: 200 OK"},
		{"an empty line outside a call stays a line", h1 + "\n" + h1 + "hello", h1 + "\n" + h1 + "hello"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Redact(tc.in); got != tc.want {
				t.Errorf("Redact:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

package network

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

func ms(n int64) *int64 { return &n }

// tt writes a threadtime line the way logcat prints one.
func tt(tid int, tag, msg string) string {
	return fmt.Sprintf("12-01 09:41:10.%03d  4120 %5d D %-8s: %s", tid%1000, tid, tag, msg)
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name string
		log  []string
		want []Request
	}{
		{"basic level, sizes on the start and status lines", []string{
			tt(11, "OkHttp", "--> POST https://a.test/fav (52-byte body)"),
			tt(11, "OkHttp", "<-- 201 Created https://a.test/fav (87ms, 2-byte body)"),
		}, []Request{{Method: "POST", URL: "https://a.test/fav", Status: 201, DurationMs: ms(87), RequestBytes: ms(52), ResponseBytes: ms(2), Source: SourceOkHttp, Time: "12-01 09:41:10.011", Pid: 4120, Tid: 11}}},
		{"interleaved threads, same URL, answered in reverse", []string{
			tt(21, "OkHttp", "--> GET https://a.test/c"),
			tt(22, "OkHttp", "--> GET https://a.test/c"),
			tt(22, "OkHttp", "<-- 404 Not Found https://a.test/c (5ms)"),
			tt(21, "OkHttp", "<-- 200 OK https://a.test/c (900ms)"),
		}, []Request{
			{Method: "GET", URL: "https://a.test/c", Status: 200, DurationMs: ms(900), Source: SourceOkHttp, Time: "12-01 09:41:10.021", Pid: 4120, Tid: 21},
			{Method: "GET", URL: "https://a.test/c", Status: 404, DurationMs: ms(5), Source: SourceOkHttp, Time: "12-01 09:41:10.022", Pid: 4120, Tid: 22},
		}},
		{"a redirect answers with another URL on the same thread", []string{
			tt(31, "OkHttp", "--> GET http://a.test/old"),
			tt(31, "OkHttp", "<-- 200 OK https://a.test/new (12ms)"),
		}, []Request{{Method: "GET", URL: "http://a.test/old", Status: 200, DurationMs: ms(12), Source: SourceOkHttp, Time: "12-01 09:41:10.031", Pid: 4120, Tid: 31}}},
		{"HTTP/2 status line has no message", []string{
			tt(41, "net", "--> GET https://a.test/ h2"),
			tt(41, "net", "<-- 200 https://a.test/ (3ms, 0-byte body)"),
		}, []Request{{Method: "GET", URL: "https://a.test/", Status: 200, DurationMs: ms(3), ResponseBytes: ms(0), Source: SourceOkHttp, Time: "12-01 09:41:10.041", Pid: 4120, Tid: 41}}},
		{"a response with no request (the log rotated)", []string{
			tt(51, "OkHttp", "Content-Type: text/plain"),
			tt(51, "OkHttp", "<-- 503 Service Unavailable https://a.test/x (2ms)"),
		}, []Request{{URL: "https://a.test/x", Status: 503, DurationMs: ms(2), Source: SourceOkHttp, Time: "12-01 09:41:10.051", Partial: true, Pid: 4120, Tid: 51}}},
		{"half a request: no answer before the log ends", []string{
			tt(61, "OkHttp", "--> GET https://a.test/slow"),
			tt(61, "OkHttp", "--> END GET"),
		}, []Request{{Method: "GET", URL: "https://a.test/slow", Failed: true, Error: NoResponse, Source: SourceOkHttp, Time: "12-01 09:41:10.061", Pid: 4120, Tid: 61}}},
		{"a failure", []string{
			tt(71, "OkHttp", "--> GET https://a.test/t"),
			tt(71, "OkHttp", "<-- HTTP FAILED: java.net.SocketTimeoutException: timeout"),
		}, []Request{{Method: "GET", URL: "https://a.test/t", Failed: true, Error: "java.net.SocketTimeoutException: timeout", Source: SourceOkHttp, Time: "12-01 09:41:10.071", Pid: 4120, Tid: 71}}},
		{"lookalikes are not calls", []string{
			tt(81, "App", "--> end of list"),
			tt(81, "App", "<-- back pressed"),
			tt(81, "App", "REQUEST: none"),
			tt(81, "App", "FROM: a friend"),
			tt(81, "App", "Content-Type: text/plain"),
		}, []Request{}},
		{"ktor calls for one URL pair oldest first, across threads", []string{
			tt(91, "HttpClient", "REQUEST: https://a.test/k"),
			tt(91, "HttpClient", "METHOD: HttpMethod(value=GET)"),
			tt(92, "HttpClient", "REQUEST: https://a.test/k"),
			tt(92, "HttpClient", "METHOD: HttpMethod(value=GET)"),
			tt(193, "HttpClient", "RESPONSE: 500 Internal Server Error"),
			tt(193, "HttpClient", "METHOD: HttpMethod(value=GET)"),
			tt(193, "HttpClient", "FROM: https://a.test/k"),
			tt(193, "HttpClient", "-> Content-Length: 17"),
		}, []Request{
			{Method: "GET", URL: "https://a.test/k", Status: 500, DurationMs: ms(102), ResponseBytes: ms(17), Source: SourceKtor, Time: "12-01 09:41:10.091", Pid: 4120, Tid: 91},
			{Method: "GET", URL: "https://a.test/k", Failed: true, Error: NoResponse, Source: SourceKtor, Time: "12-01 09:41:10.092", Pid: 4120, Tid: 92},
		}},
		{"a ktor response with no request", []string{
			tt(94, "HttpClient", "RESPONSE: 200 OK"),
			tt(94, "HttpClient", "METHOD: GET"),
			tt(94, "HttpClient", "FROM: https://a.test/z"),
		}, []Request{{Method: "GET", URL: "https://a.test/z", Status: 200, Source: SourceKtor, Time: "12-01 09:41:10.094", Partial: true, Pid: 4120, Tid: 94}}},
		{"NUL bytes and control characters are cleaned", []string{
			tt(95, "OkHttp", "--> GET https://a.test/\x00x"),
			tt(95, "OkHttp", "<-- HTTP FAILED: java.io.IOException: bad\x1b[31m"),
		}, []Request{{Method: "GET", URL: "https://a.test/ x", Failed: true, Error: "java.io.IOException: bad [31m", Source: SourceOkHttp, Time: "12-01 09:41:10.095", Pid: 4120, Tid: 95}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ParseLines(tc.log).Requests
			if deref(got) != deref(tc.want) {
				t.Errorf("got  %v\nwant %v", deref(got), deref(tc.want))
			}
		})
	}
}

// deref shows requests by content (pointer fields as their values), so
// they compare.
func deref(rs []Request) string {
	b, _ := json.Marshal(rs)
	return string(b)
}

// logcat cuts a message at 4,068 bytes (LOGGER_ENTRY_MAX_PAYLOAD): a long URL
// loses its tail, and what is left is still read.
func TestCutLines(t *testing.T) {
	long := "https://a.test/" + strings.Repeat("p", 5000)
	start := tt(7, "OkHttp", "--> GET "+long+" h2")[:4068]
	status := tt(7, "OkHttp", "<-- 200 OK "+long+" (31ms)")[:4068]
	res := ParseLines([]string{start, status})
	if len(res.Requests) != 1 {
		t.Fatalf("got %d requests, want 1: %+v", len(res.Requests), res.Requests)
	}
	r := res.Requests[0]
	if r.Method != "GET" || r.Status != 200 || len(r.URL) > MaxURL || !strings.HasSuffix(r.URL, "…") || r.Partial {
		t.Errorf("cut call read as %+v (URL %d bytes)", r, len(r.URL))
	}
}

// A megabyte field and a million lines cost bounded time and memory.
func TestHugeInput(t *testing.T) {
	huge := tt(1, "OkHttp", "--> GET https://a.test/"+strings.Repeat("x", 1<<20))
	res := ParseLines([]string{huge, tt(1, "OkHttp", "<-- HTTP FAILED: "+strings.Repeat("e", 1<<20))})
	if r := res.Requests[0]; len(r.URL) > MaxURL || len(r.Error) > MaxError {
		t.Errorf("fields not bounded: URL %d, error %d bytes", len(r.URL), len(r.Error))
	}

	var b strings.Builder
	for i := 0; i < 1_000_000; i++ {
		switch i % 4 {
		case 0:
			b.WriteString(tt(i%5000, "OkHttp", fmt.Sprintf("--> GET https://a.test/%d", i)))
		case 2:
			b.WriteString(tt((i-2)%5000, "OkHttp", fmt.Sprintf("<-- 200 OK https://a.test/%d (1ms)", i-2)))
		default:
			b.WriteString(tt(i%5000, "Choreographer", "Skipped 3 frames!"))
		}
		b.WriteByte('\n')
	}
	t0 := time.Now()
	res = Parse(b.String())
	took := time.Since(t0)
	if len(res.Requests) != MaxRequests || res.Dropped != 250_000-MaxRequests {
		t.Errorf("kept %d, dropped %d", len(res.Requests), res.Dropped)
	}
	t.Logf("1,000,000 lines in %v", took)
	if took > 30*time.Second {
		t.Errorf("a million lines took %v", took)
	}
}

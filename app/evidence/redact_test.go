package evidence

import (
	"strings"
	"testing"
)

// The real logs in testdata: each secret they carry is gone after Redact,
// and the lines around it are unchanged.
func TestRedactRealLogs(t *testing.T) {
	for _, tc := range []struct {
		file    string
		gone    []string
		kept    []string
		changed int // lines that differ after redaction
	}{
		{"redact_zulip_okhttp.txt",
			[]string{"myemail%40gmail.com", "myemail@gmail.com", "MnGIId4Kh32kDLU3FvZ07n4bgKew7TZM"},
			[]string{"D/OkHttp: --> POST https://zulip.tabbott.net/api/v1/fetch_api_key http/1.1", "D/OkHttp: Access-Control-Allow-Headers: Authorization", "D/OkHttp: User-Agent: ZulipAndroid/0.9.2", "Date: Sun, 25 Sep 2016 08:13:07 GMT"},
			2},
		{"redact_labnex_bearer.txt",
			[]string{"glpat-"},
			[]string{"okhttp.OkHttpClient: Authorization: Bearer [REDACTED]", "okhttp.OkHttpClient: --> GET https://gitlab.com/api/v4/user"},
			1},
		{"redact_remotedroid_ipv4.txt",
			[]string{"192.168.43.45"},
			[]string{"failed to connect to /[REDACTED] (port 80)", "11-21 22:00:23.919 23625-24374/in.umairkhan.remotedroid W/System.err:     at libcore.io.IoBridge.isConnected(IoBridge.java:238)"},
			1},
		{"redact_portmapper_ipv6.txt",
			[]string{"fe80::12be:f5ff:fe1a:d414"},
			[]string{"failed to connect to /[REDACTED] (port 49152)", "java.lang.Thread.run (Thread.java:818)"},
			1},
	} {
		t.Run(tc.file, func(t *testing.T) {
			in := readTestdata(t, tc.file)
			out := Redact(in)
			checkRedacted(t, out, tc.gone, tc.kept)
			a, b := strings.Split(in, "\n"), strings.Split(out, "\n")
			if len(a) != len(b) {
				t.Fatalf("line count %d -> %d", len(a), len(b))
			}
			changed := 0
			for i := range a {
				if a[i] != b[i] {
					changed++
				}
			}
			if changed != tc.changed {
				t.Errorf("%d lines changed, want %d:\n%s", changed, tc.changed, out)
			}
		})
	}
}

// checkRedacted fails for each of gone that is still in out and each of kept
// that is not.
func checkRedacted(t *testing.T, out string, gone, kept []string) {
	t.Helper()
	for _, g := range gone {
		if strings.Contains(out, g) {
			t.Errorf("%q survived:\n%s", g, out)
		}
	}
	for _, k := range kept {
		if !strings.Contains(out, k) {
			t.Errorf("%q is missing:\n%s", k, out)
		}
	}
}

func TestRedactRules(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"GET https://api.example/v2/trails?near=47.61,-122.33&session=abc#top", "GET https://api.example/v2/trails?[REDACTED]#top"},
		{"open http://10.0.2.2:8080/x?y=1", "open http://[REDACTED]:8080/x?[REDACTED]"},
		{"signed in as ana.lopez@example.com", "signed in as [REDACTED]"},
		{`{"Authorization":"Basic dXNlcjpwYXNz"}`, `{"Authorization":"Basic [REDACTED]"}`},
		{"authorization=abc123;", "authorization=[REDACTED];"},
		{"curl -H 'X: y' --oauth2-bearer x Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig", "curl -H 'X: y' --oauth2-bearer x Bearer [REDACTED]"},
		{"sha 9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c", "sha [REDACTED]"},
		{"key=AIzaSyD3xampleKey0123456789abcdefghij", "key=[REDACTED]"},
		{"peer ::1 and 2001:db8::ff00:42:8329 up", "peer [REDACTED] and [REDACTED] up"},
		{"from 203.0.113.17 via 192.168.1.23", "from [REDACTED] via [REDACTED]"},
	} {
		if got := Redact(tc.in); got != tc.want {
			t.Errorf("Redact(%q)\n = %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

func TestRedactedCrashStillParses(t *testing.T) {
	text := Redact(readTestdata(t, "logcat_crash.txt"))
	checkRedacted(t, text, []string{"ana.lopez@example.com", "session=9f8e", "near=47.61"}, nil)
	s, _ := ParseLogcat(text, "com.fixthis.demo", 0)
	if s.Crash == nil || s.Crash.Frame != "com.fixthis.demo.ui.format.TrailFormatKt.formatDistance(TrailFormat.kt:27)" {
		t.Errorf("crash after redaction: %+v", s.Crash)
	}
}

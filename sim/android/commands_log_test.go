// log (toybox's log.c) and logcat's filterspecs, as a shell user meets them.
package android

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
)

// threadtimeLine is what `logcat -v threadtime` prints for one entry.
var threadtimeLine = regexp.MustCompile(`^\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} +(\d+) +(\d+) ([VDIWEFS]) (.+?) *: (.*)$`)

func TestLogLandsInLogcat(t *testing.T) {
	for _, tc := range []struct {
		name, script    string
		status          int
		level, tag, msg string
		stderr          string
	}{
		{"defaults", "log hello   world", 0, "I", "log", "hello world", ""},
		{"priority and tag", "log -p e -t OkHttp '<-- HTTP FAILED: java.net.SocketTimeoutException: timeout'", 0, "E", "OkHttp", "<-- HTTP FAILED: java.net.SocketTimeoutException: timeout", ""},
		{"glued option values, upper-case priority", "log -pW -tnet -- -5 degrees", 0, "W", "net", "-5 degrees", ""},
		{"cut at 1024 bytes", "log " + strings.Repeat("x", 1500), 1, "I", "log", strings.Repeat("x", 1024), "log: log cut at 1024 bytes\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := demoDevice(t)
			var out, errs bytes.Buffer
			if st := d.Shell(context.Background(), tc.script, bytes.NewReader(nil), &out, &errs); st != tc.status || errs.String() != tc.stderr {
				t.Fatalf("status %d, stderr %q; want %d, %q", st, errs.String(), tc.status, tc.stderr)
			}
			dump, _ := run(d, "logcat -d -s "+tc.tag)
			lines := strings.Split(strings.TrimSpace(dump), "\n")
			m := threadtimeLine.FindStringSubmatch(lines[len(lines)-1])
			if m == nil || m[3] != tc.level || m[4] != tc.tag || m[5] != tc.msg || m[1] != m[2] || m[1] == "" {
				t.Fatalf("logcat -s %s ends with %q", tc.tag, lines[len(lines)-1])
			}
		})
	}
}

func TestLogRefusesBadOptions(t *testing.T) {
	d := demoDevice(t)
	for script, want := range map[string]string{
		"log -p x hi":  "log: bad -p 'x'\n",
		"log -p ee hi": "log: bad -p 'ee'\n",
		"log -q hi":    "log: Unknown option 'q' (see \"log --help\")\n",
		"log -t":       "log: Missing argument to -t (see \"log --help\")\n",
	} {
		if out, st := run(d, script); st != 1 || out != want {
			t.Errorf("%s: status %d, %q; want 1, %q", script, st, out, want)
		}
	}
}

// Without arguments log writes each line of its input, then the empty
// message log_main's last write sends.
func TestLogReadsStdin(t *testing.T) {
	d := demoDevice(t)
	var out bytes.Buffer
	if st := d.Shell(context.Background(), "log -t piped", strings.NewReader("one\ntwo\n"), &out, &out); st != 0 {
		t.Fatalf("status %d: %s", st, out.String())
	}
	dump, _ := run(d, "logcat -d -s piped")
	var msgs []string
	for _, l := range strings.Split(strings.TrimSpace(dump), "\n") {
		if m := threadtimeLine.FindStringSubmatch(l); m != nil {
			msgs = append(msgs, m[5])
		} else if strings.HasSuffix(l, "piped   :") {
			msgs = append(msgs, "")
		}
	}
	if strings.Join(msgs, "|") != "one|two|" {
		t.Errorf("messages %q", msgs)
	}
}

func TestLogcatFilterspecs(t *testing.T) {
	d := demoDevice(t)
	for _, s := range []string{"log -p d -t A a-debug", "log -p e -t A a-error", "log -p i -t B b-info", "log -p w -t C c-warn"} {
		if _, st := run(d, s); st != 0 {
			t.Fatalf("%s failed", s)
		}
	}
	for _, tc := range []struct{ args, want string }{
		{"-s A", "a-debug a-error"},
		{"-s A:E", "a-error"},
		{"-s A B:I", "a-debug a-error b-info"},
		{"A:S B:V C:W *:S", "b-info c-warn"},
		{"*:W", "a-error c-warn"},
		{"-s A:I A:V", "a-debug a-error"}, // the later rule for a tag wins
		{"-s Nothing", ""},
	} {
		out, st := run(d, "logcat -d -v threadtime "+tc.args)
		var got []string
		for _, l := range strings.Split(out, "\n") {
			if m := threadtimeLine.FindStringSubmatch(l); m != nil && strings.Contains("abc", m[5][:1]) && strings.Contains(m[5], "-") {
				got = append(got, m[5])
			}
		}
		if st != 0 || strings.Join(got, " ") != tc.want {
			t.Errorf("logcat %s: %d %q, want %q", tc.args, st, got, tc.want)
		}
	}
	if out, st := run(d, "logcat -d A:Q"); st != 1 || !strings.Contains(out, "Invalid filter expression") {
		t.Errorf("a bad priority: %d %q", st, out)
	}
}

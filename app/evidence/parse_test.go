package evidence

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// interleavedLog is the network parser's sample of OkHttp calls logged at
// BODY level on interleaved threads, named from testdata/ for readTestdata.
const interleavedLog = "../network/testdata/okhttp_body_interleaved.log"

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func intp(v int) *int { return &v }

func eqInt(t *testing.T, what string, got, want *int) {
	t.Helper()
	switch {
	case got == nil && want == nil:
	case got == nil || want == nil:
		t.Errorf("%s = %v, want %v", what, got, want)
	case *got != *want:
		t.Errorf("%s = %d, want %d", what, *got, *want)
	}
}

func TestParseGfxinfo(t *testing.T) {
	for _, tc := range []struct {
		file               string
		pid, total         int
		janky              *int
		jankyPct           float64
		p50, p90, p95, p99 *int
		line               string
	}{
		{"gfxinfo_kitkat.txt", 29541, 191, nil, 0, nil, nil, nil, nil,
			"191 frames (this Android version prints no jank figures)"},
		{"gfxinfo_api23.txt", 9702, 3, intp(2), 66.67, nil, intp(101), intp(101), intp(101),
			"3 frames, 2 janky (66.67%); p90 101ms p95 101ms p99 101ms"},
		{"gfxinfo_api28.txt", 2720, 43, intp(7), 16.28, intp(5), intp(69), intp(150), intp(200),
			"43 frames, 7 janky (16.28%); p50 5ms p90 69ms p95 150ms p99 200ms"},
		{"gfxinfo_api34.txt", 12017, 3878, intp(169), 4.36, intp(17), intp(18), intp(19), intp(30),
			"3878 frames, 169 janky (4.36%); p50 17ms p90 18ms p95 19ms p99 30ms"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			s, err := ParseGfxinfo(readTestdata(t, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if s.Pid != tc.pid || s.TotalFrames != tc.total {
				t.Errorf("pid %d frames %d, want %d %d", s.Pid, s.TotalFrames, tc.pid, tc.total)
			}
			eqInt(t, "janky", s.JankyFrames, tc.janky)
			if tc.janky != nil && *s.JankyPercent != tc.jankyPct {
				t.Errorf("janky%% = %v, want %v", *s.JankyPercent, tc.jankyPct)
			}
			eqInt(t, "p50", s.P50Ms, tc.p50)
			eqInt(t, "p90", s.P90Ms, tc.p90)
			eqInt(t, "p95", s.P95Ms, tc.p95)
			eqInt(t, "p99", s.P99Ms, tc.p99)
			if got := s.Line(); got != tc.line {
				t.Errorf("line %q\nwant %q", got, tc.line)
			}
		})
	}
}

func TestParseMeminfo(t *testing.T) {
	for _, tc := range []struct {
		file         string
		pid, total   int
		java, native *int
		line         string
	}{
		{"meminfo_api19.txt", 30125, 44563, nil, nil, "TOTAL PSS 44563 KB"},
		{"meminfo_api23.txt", 22861, 145991, intp(17976), intp(24240), "TOTAL PSS 145991 KB (Java heap 17976 KB, native heap 24240 KB)"},
		{"meminfo_api34.txt", 12017, 62219, intp(10036), intp(21820), "TOTAL PSS 62219 KB (Java heap 10036 KB, native heap 21820 KB)"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			s, err := ParseMeminfo(readTestdata(t, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if s.Pid != tc.pid || s.TotalPSSKB != tc.total {
				t.Errorf("pid %d total %d, want %d %d", s.Pid, s.TotalPSSKB, tc.pid, tc.total)
			}
			eqInt(t, "java", s.JavaHeapKB, tc.java)
			eqInt(t, "native", s.NativeHeapKB, tc.native)
			if got := s.Line(); got != tc.line {
				t.Errorf("line %q\nwant %q", got, tc.line)
			}
		})
	}
}

func TestNoProcessIsTyped(t *testing.T) {
	if _, err := ParseMeminfo(readTestdata(t, "meminfo_no_process.txt")); !errors.Is(err, ErrNoProcess) {
		t.Errorf("meminfo: %v, want ErrNoProcess", err)
	}
	if _, err := ParseGfxinfo(readTestdata(t, "gfxinfo_no_process.txt")); !errors.Is(err, ErrNoProcess) {
		t.Errorf("gfxinfo: %v, want ErrNoProcess", err)
	}
	at, bad := parseFailure(KindMemory, ErrNoProcess)
	if !bad || at.Status != StatusUnsupported || at.Reason != ReasonProcessNotRunning || strings.ContainsAny(at.Summary, "0123456789") {
		t.Errorf("no process maps to %+v", at)
	}
}

func TestUnknownOutputIsUnparsable(t *testing.T) {
	for _, text := range []string{"", "Can't find service: gfxinfo\n", "garbage\r\n"} {
		if _, err := ParseGfxinfo(text); !errors.Is(err, ErrUnparsable) {
			t.Errorf("gfxinfo %q: %v", text, err)
		}
		if _, err := ParseMeminfo(text); !errors.Is(err, ErrUnparsable) {
			t.Errorf("meminfo %q: %v", text, err)
		}
	}
}

func TestParseLogcatCrashOfAGoneProcess(t *testing.T) {
	// pid 0: the process is gone; the crash is found by its Process: line.
	s, kept := ParseLogcat(readTestdata(t, "logcat_crash.txt"), "com.fixthis.demo", 0)
	if s.Crash == nil {
		t.Fatal("no crash found")
	}
	c := *s.Crash
	want := Crash{Time: "12-01 09:41:11.909", Pid: 12017, Thread: "main", Exception: "java.lang.IllegalStateException",
		Message: "Trail 42 has no start point", Frame: "com.fixthis.demo.ui.format.TrailFormatKt.formatDistance(TrailFormat.kt:27)"}
	if c != want {
		t.Errorf("crash %+v\nwant  %+v", c, want)
	}
	if len(s.Pids) != 1 || s.Pids[0] != 12017 {
		t.Errorf("pids %v", s.Pids)
	}
	for _, l := range kept {
		if strings.Contains(l, "weather") || strings.Contains(l, " 1423 ") {
			t.Errorf("kept a line that is not the app's: %s", l)
		}
	}
	// 8 app lines before the crash, the 18-line crash record, Sending signal.
	if s.Lines != 27 || s.Errors != 19 || s.Warnings != 1 {
		t.Errorf("lines %d errors %d warnings %d", s.Lines, s.Errors, s.Warnings)
	}
	wantLine := "crash: java.lang.IllegalStateException: Trail 42 has no start point at com.fixthis.demo.ui.format.TrailFormatKt.formatDistance(TrailFormat.kt:27); 19 errors, 1 warning in 27 app lines"
	if got := s.Line(); got != wantLine {
		t.Errorf("line %q\nwant %q", got, wantLine)
	}
}

func TestParseLogcatANR(t *testing.T) {
	s, kept := ParseLogcat(readTestdata(t, "logcat_anr.txt"), "com.fixthis.demo", 13377)
	if s.ANR == nil || s.Crash != nil {
		t.Fatalf("anr %+v crash %+v", s.ANR, s.Crash)
	}
	want := ANR{Time: "12-01 10:12:52.611", Pid: 13377, Activity: "com.fixthis.demo/.MainActivity",
		Reason: "Input dispatching timed out (7d1f0e3 com.fixthis.demo/com.fixthis.demo.MainActivity (server) is not responding. Waited 5001ms for MotionEvent)"}
	if *s.ANR != want {
		t.Errorf("anr %+v\nwant %+v", *s.ANR, want)
	}
	// 3 app lines and the 11-line ANR record; InputDispatcher's lines are system_server's.
	if s.Lines != 14 || len(kept) != 14 {
		t.Errorf("lines %d kept %d", s.Lines, len(kept))
	}
	if got := s.Line(); !strings.HasPrefix(got, "ANR: Input dispatching timed out") || len([]rune(got)) > MaxSummary {
		t.Errorf("line %q", got)
	}
}

func TestParseLogcatOtherPackageAndPrefix(t *testing.T) {
	// A package that only shares a prefix (com.fixthis.demo2) is not the app.
	text := strings.ReplaceAll(readTestdata(t, "logcat_crash.txt"), "com.fixthis.demo", "com.fixthis.demo2")
	s, kept := ParseLogcat(text, "com.fixthis.demo", 0)
	if s.Crash != nil || len(kept) != 0 {
		t.Errorf("crash %+v, %d lines kept for another package", s.Crash, len(kept))
	}
	if got := s.Line(); got != "no crash or ANR; 0 errors, 0 warnings in 0 app lines" {
		t.Errorf("line %q", got)
	}
}

func TestParseLogcatCRLF(t *testing.T) {
	text := strings.ReplaceAll(readTestdata(t, "logcat_crash.txt"), "\n", "\r\n")
	s, _ := ParseLogcat(text, "com.fixthis.demo", 0)
	if s.Crash == nil || s.Crash.Message != "Trail 42 has no start point" {
		t.Errorf("crash %+v", s.Crash)
	}
}

func TestOneLineBounds(t *testing.T) {
	got := oneLine("a\nb\t\tc" + strings.Repeat("x", 300))
	if strings.ContainsAny(got, "\n\t") || len([]rune(got)) != MaxSummary || !strings.HasSuffix(got, "…") {
		t.Errorf("%q", got)
	}
}

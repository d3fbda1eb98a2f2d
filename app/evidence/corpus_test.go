package evidence

import (
	"errors"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"fixthis/internal/devicetest"
	"fixthis/internal/golden"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.json from the current parser output")

// reading is what the evidence parsers read from one output; each corpus file's
// golden file holds it.
type reading struct {
	Memory *MemorySummary `json:"memory,omitempty"`
	Frames *FrameSummary  `json:"frames,omitempty"`
	Logcat *LogcatSummary `json:"logcat,omitempty"`
	Kept   int            `json:"keptLines,omitempty"`
	Err    string         `json:"error,omitempty"`
}

// logcatPackage is the app the logcat samples are about.
const logcatPackage = "com.fixthis.demo"

func read(file, text string) reading {
	var r reading
	var err error
	switch {
	case strings.HasPrefix(file, "meminfo_"):
		var s MemorySummary
		if s, err = ParseMeminfo(text); err == nil {
			r.Memory = &s
		}
	case strings.HasPrefix(file, "gfxinfo_"):
		var s FrameSummary
		if s, err = ParseGfxinfo(text); err == nil {
			r.Frames = &s
		}
	case strings.HasPrefix(file, "logcat_"):
		s, kept := ParseLogcat(text, logcatPackage, 0)
		r.Logcat, r.Kept = &s, len(kept)
	}
	if err != nil {
		r.Err = err.Error()
	}
	return r
}

func TestEvidenceCorpusGolden(t *testing.T) {
	var n int
	for _, pat := range []string{"meminfo_*.txt", "gfxinfo_*.txt", "logcat_*.txt"} {
		files, err := filepath.Glob(filepath.Join("testdata", pat))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range files {
			file := filepath.Base(p)
			text := readTestdata(t, file)
			got := read(file, text)
			golden.JSON(t, file, got, *update)
			// CRLF, as a pty or a Windows tool passes it on, reads the same.
			if crlf := read(file, strings.ReplaceAll(text, "\n", "\r\n")); crlf.Err != got.Err ||
				(got.Memory != nil && crlf.Memory.TotalPSSKB != got.Memory.TotalPSSKB) ||
				(got.Frames != nil && crlf.Frames.TotalFrames != got.Frames.TotalFrames) {
				t.Errorf("%s: CRLF reads %+v, LF %+v", file, crlf, got)
			}
			n++
		}
	}
	if n < 15 {
		t.Fatalf("only %d corpus files", n)
	}
}

// What a person reads in the real outputs added from other devices.
func TestEvidenceRealOutputs(t *testing.T) {
	mem := []struct {
		file          string
		pid, total    int
		java, natives int
	}{
		{"meminfo_oppo_launcher.txt", 10396, 148046, 10908, 69928},       // OPPO, Android 7-8 App Summary
		{"meminfo_api31_pixel3_systemui.txt", 2084, 96932, 15316, 22136}, // Pixel 3, Android 12
		{"meminfo_memorylab.txt", 20602, 337790, 69716, 80824},           // Android 10+, TOTAL SWAP PSS
	}
	for _, tt := range mem {
		s, err := ParseMeminfo(readTestdata(t, tt.file))
		if err != nil || s.Pid != tt.pid || s.TotalPSSKB != tt.total || *s.JavaHeapKB != tt.java || *s.NativeHeapKB != tt.natives {
			t.Errorf("%s: %+v %v", tt.file, s, err)
		}
	}
	gfx := []struct {
		file              string
		pid, total, janky int
		p99               int
	}{
		{"gfxinfo_api31_pixel3_systemui.txt", 2084, 431, 47, 250},
		{"gfxinfo_memorylab.txt", 20602, 103, 50, 150},
	}
	for _, tt := range gfx {
		s, err := ParseGfxinfo(readTestdata(t, tt.file))
		if err != nil || s.Pid != tt.pid || s.TotalFrames != tt.total || *s.JankyFrames != tt.janky || *s.P99Ms != tt.p99 {
			t.Errorf("%s: %+v %v", tt.file, s, err)
		}
	}
}

// An app with several processes prints a record for each; the main process's is
// read wherever it comes, and a record without figures is named in the error.
func TestMeminfoRecords(t *testing.T) {
	main := readTestdata(t, "meminfo_oppo_launcher.txt")
	_, rec, _ := strings.Cut(main, "** MEMINFO")
	remote := strings.Replace("** MEMINFO"+rec, "[com.oppo.launcher]", "[com.oppo.launcher:widget]", 1)
	remote = strings.Replace(remote, "pid 10396", "pid 10400", 1)
	remote = strings.ReplaceAll(remote, "148046", "5000")
	s, err := ParseMeminfo("Applications Memory Usage (in Kilobytes):\n" + remote + "\n" + "** MEMINFO" + rec)
	if err != nil || s.Pid != 10396 || s.TotalPSSKB != 148046 {
		t.Errorf("main process not chosen: %+v %v", s, err)
	}
	_, err = ParseMeminfo("** MEMINFO in pid 7 [com.x] **\n   Native Heap  1 2 3\n")
	if !errors.Is(err, ErrUnparsable) || !strings.Contains(err.Error(), "pid 7 [com.x]") {
		t.Errorf("record without figures: %v", err)
	}
}

// Bad input never panics; the figure parsers fail with ErrUnparsable (or read the
// figures that are there), in a message of readable length.
func TestEvidenceParsersBadInput(t *testing.T) {
	for _, file := range []string{"meminfo_api31_pixel3_systemui.txt", "gfxinfo_api31_pixel3_systemui.txt", "logcat_crash.txt"} {
		for name, in := range devicetest.BadInputs(readTestdata(t, file)) {
			for _, err := range []error{errOf(ParseMeminfo(in)), errOf(ParseGfxinfo(in))} {
				if err != nil && (!errors.Is(err, ErrUnparsable) && !errors.Is(err, ErrNoProcess) || len(err.Error()) > 400) {
					t.Errorf("%s/%s: %.300v", file, name, err)
				}
			}
			sum, kept := ParseLogcat(in, logcatPackage, 0)
			if sum.Lines != len(kept) || sum.Errors+sum.Warnings > sum.Lines {
				t.Errorf("%s/%s: summary %+v for %d lines", file, name, sum, len(kept))
			}
		}
	}
}

func errOf[T any](_ T, err error) error { return err }

func FuzzParseMeminfo(f *testing.F) {
	devicetest.Seed(f, "meminfo_api19.txt", "meminfo_oppo_launcher.txt", "meminfo_no_process.txt")
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMeminfo(s)
		if err == nil && (m.TotalPSSKB < 0 || m.Pid < 0) {
			t.Fatalf("summary %+v", m)
		}
		_ = m.Line()
	})
}

func FuzzParseGfxinfo(f *testing.F) {
	devicetest.Seed(f, "gfxinfo_kitkat.txt", "gfxinfo_api28.txt", "gfxinfo_no_process.txt")
	f.Fuzz(func(t *testing.T, s string) {
		g, err := ParseGfxinfo(s)
		if err == nil && g.TotalFrames < 0 {
			t.Fatalf("summary %+v", g)
		}
		if len(g.Line()) > 400 {
			t.Fatalf("line of %d bytes", len(g.Line()))
		}
	})
}

func FuzzParseLogcat(f *testing.F) {
	devicetest.Seed(f, "logcat_anr.txt")
	f.Add("12-02 00:00:00.000  4120  4120 E AndroidRuntime: FATAL EXCEPTION: main\n12-02 00:00:00.000  4120  4120 E AndroidRuntime: Process: com.fixthis.demo, PID: 4120\n")
	f.Fuzz(func(t *testing.T, s string) {
		sum, kept := ParseLogcat(s, logcatPackage, 0)
		if sum.Lines != len(kept) {
			t.Fatalf("%d lines counted, %d kept", sum.Lines, len(kept))
		}
	})
}

// Lines in another logcat format are counted, not passed over in silence; the
// buffer banners are not such lines.
func TestLogcatCountsOtherFormats(t *testing.T) {
	for _, file := range []string{"logcat_crash.txt", "logcat_anr.txt"} {
		if _, _, unread := parseLogcat(readTestdata(t, file), logcatPackage, 0); unread != 0 {
			t.Errorf("%s: %d lines in no threadtime format", file, unread)
		}
	}
	brief := "--------- beginning of main\nE/AndroidRuntime( 4120): FATAL EXCEPTION: main\n" +
		"12-02 00:00:00.000  4120  4120 I ActivityManager: Start proc 4120:com.fixthis.demo/u0a187 for top-activity\n"
	sum, _, unread := parseLogcat(brief, logcatPackage, 0)
	if unread != 1 || len(sum.Pids) != 1 {
		t.Errorf("unread %d, summary %+v", unread, sum)
	}
}

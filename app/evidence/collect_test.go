package evidence

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fixthis/adb"
)

// fakeShell answers commands by prefix: output, exit code, a delay (honouring
// the context as the adb client does), or an error.
type fakeShell struct {
	answers map[string]fakeAnswer
}

type fakeAnswer struct {
	out   string
	code  int
	delay time.Duration
	err   error
}

func (f fakeShell) Shell(ctx context.Context, cmd string) (adb.ShellResult, error) {
	best := ""
	for p := range f.answers {
		if strings.HasPrefix(cmd, p) && len(p) > len(best) {
			best = p
		}
	}
	a, ok := f.answers[best]
	if !ok {
		return adb.ShellResult{Stderr: []byte("not found"), ExitCode: 127}, nil
	}
	if a.delay > 0 {
		select {
		case <-time.After(a.delay):
		case <-ctx.Done():
			return adb.ShellResult{}, fmt.Errorf("shell %s: %w", cmd, context.Cause(ctx))
		}
	}
	if a.err != nil {
		return adb.ShellResult{}, a.err
	}
	return adb.ShellResult{Stdout: []byte(a.out), ExitCode: a.code}, nil
}

func testStore(t *testing.T) *Store {
	root := filepath.Join(t.TempDir(), ".fixthis", "runtime-evidence")
	return &Store{Root: root, Display: ".fixthis/runtime-evidence"}
}

func TestCollectCompleteStoresRedactedPrivateFiles(t *testing.T) {
	sh := fakeShell{answers: map[string]fakeAnswer{
		"pidof ":           {out: "12017\n"},
		"logcat ":          {out: readTestdata(t, "logcat_crash.txt")},
		"dumpsys gfxinfo ": {out: readTestdata(t, "gfxinfo_api34.txt")},
		"dumpsys meminfo ": {out: readTestdata(t, "meminfo_api34.txt")},
	}}
	st := testStore(t)
	a := Collect(context.Background(), sh, Request{Serial: "emulator-5554", Package: "com.fixthis.demo", Store: st, SessionID: "s1", CaptureID: "c1"})
	if a.Status != StatusComplete || a.Failure != "" || len(a.Warnings) != 0 {
		t.Fatalf("attempt %+v", a)
	}
	if a.Dir != ".fixthis/runtime-evidence/s1/c1" {
		t.Errorf("dir %q", a.Dir)
	}
	if a.Attachment(KindLogcat).Logcat.Crash == nil || a.Attachment(KindFrames).Frames.TotalFrames != 3878 || a.Attachment(KindMemory).Memory.TotalPSSKB != 62219 {
		t.Errorf("summaries %+v", a.Attachments)
	}
	for _, at := range a.Attachments {
		if at.Kind == KindNetwork {
			continue // no HTTP calls in this log: nothing to store (network_test.go stores some)
		}
		want := ".fixthis/runtime-evidence/s1/c1/" + map[Kind]string{KindLogcat: "logcat.txt", KindFrames: "gfxinfo.txt", KindMemory: "meminfo.txt"}[at.Kind]
		if at.Artifact != want {
			t.Errorf("%s artifact %q, want %q", at.Kind, at.Artifact, want)
		}
	}
	dir := filepath.Join(st.Root, "s1", "c1")
	for _, d := range []string{st.Root, filepath.Join(st.Root, "s1"), dir} {
		if fi, err := os.Stat(d); err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("%s: %v %v", d, fi.Mode(), err)
		}
	}
	for _, f := range []string{"logcat.txt", "gfxinfo.txt", "meminfo.txt"} {
		fi, err := os.Stat(filepath.Join(dir, f))
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v %v", f, fi, err)
		}
	}
	raw, _ := os.ReadFile(filepath.Join(dir, "logcat.txt"))
	if strings.Contains(string(raw), "ana.lopez@example.com") || strings.Contains(string(raw), "session=9f8e") || !strings.Contains(string(raw), "FATAL EXCEPTION") {
		t.Errorf("stored logcat is not the redacted output:\n%s", raw)
	}
	// Only the app's lines are stored: not system_server's, not another app's crash.
	if strings.Contains(string(raw), "com.example.weather") || strings.Contains(string(raw), " 1423 ") || strings.Count(string(raw), "\n") != 27 {
		t.Errorf("stored logcat holds more than the app's 27 lines:\n%s", raw)
	}
}

func TestCollectProcessGone(t *testing.T) {
	sh := fakeShell{answers: map[string]fakeAnswer{
		"pidof ":           {code: 1},
		"logcat ":          {out: readTestdata(t, "logcat_crash.txt")},
		"dumpsys gfxinfo ": {out: readTestdata(t, "gfxinfo_no_process.txt")},
		"dumpsys meminfo ": {out: readTestdata(t, "meminfo_no_process.txt")},
	}}
	a := Collect(context.Background(), sh, Request{Serial: "s", Package: "com.fixthis.demo", Store: testStore(t), SessionID: "s1"})
	if a.Status != StatusPartial || a.Attachment(KindLogcat).Status != StatusComplete || a.Attachment(KindLogcat).Logcat.Crash == nil {
		t.Fatalf("attempt %+v", a)
	}
	for _, kind := range []Kind{KindFrames, KindMemory} {
		at := a.Attachment(kind)
		if at.Status != StatusUnsupported || at.Reason != ReasonProcessNotRunning || at.Frames != nil || at.Memory != nil {
			t.Errorf("%s: %+v", kind, at)
		}
		if at.Artifact == "" {
			t.Errorf("%s: the device's answer should still be stored", kind)
		}
	}
	want := []string{"frames-process-not-running", "memory-process-not-running"}
	if strings.Join(a.Warnings, ",") != strings.Join(want, ",") {
		t.Errorf("warnings %v", a.Warnings)
	}
	if !strings.HasPrefix(a.ID, "rc-") {
		t.Errorf("generated capture id %q", a.ID)
	}
}

func TestCollectorTimeoutMakesPartialWithinBudget(t *testing.T) {
	sh := fakeShell{answers: map[string]fakeAnswer{
		"pidof ":           {out: "12017\n"},
		"logcat ":          {out: readTestdata(t, "logcat_anr.txt")},
		"dumpsys gfxinfo ": {out: "x", delay: time.Minute},
		"dumpsys meminfo ": {out: readTestdata(t, "meminfo_api34.txt")},
	}}
	t0 := time.Now()
	a := Collect(context.Background(), sh, Request{Serial: "s", Package: "com.fixthis.demo", Timeout: 150 * time.Millisecond})
	if d := time.Since(t0); d > time.Second {
		t.Errorf("took %v with a 150ms collector timeout", d)
	}
	if a.Status != StatusPartial || a.Attachment(KindFrames).Status != StatusFailed || a.Attachment(KindFrames).Reason != ReasonTimeout {
		t.Errorf("attempt %+v", a)
	}
	if a.Attachment(KindLogcat).Logcat.ANR == nil || a.Warnings[0] != "frames-timeout" {
		t.Errorf("logcat %+v warnings %v", a.Attachment(KindLogcat), a.Warnings)
	}
}

func TestCollectBudgetBoundsEveryCollector(t *testing.T) {
	slow := fakeAnswer{delay: time.Minute}
	sh := fakeShell{answers: map[string]fakeAnswer{"pidof ": slow, "logcat ": slow, "dumpsys ": slow}}
	t0 := time.Now()
	a := Collect(context.Background(), sh, Request{Serial: "s", Package: "com.fixthis.demo", Timeout: time.Minute, Budget: 200 * time.Millisecond})
	if d := time.Since(t0); d > time.Second {
		t.Errorf("took %v with a 200ms budget", d)
	}
	if a.Status != StatusFailed || a.Failure != ReasonTimeout {
		t.Errorf("attempt %+v", a)
	}
}

func TestCollectMapsFailures(t *testing.T) {
	gone := fakeShell{answers: map[string]fakeAnswer{"": {err: fmt.Errorf("shell on s: %w", adb.ErrDeviceGone)}}}
	a := Collect(context.Background(), gone, Request{Serial: "s", Package: "com.fixthis.demo"})
	if a.Status != StatusFailed || a.Failure != ReasonDeviceGone {
		t.Errorf("device gone: %+v", a)
	}
	for _, at := range a.Attachments {
		if strings.Contains(at.Summary, "shell on s") {
			t.Errorf("error text leaked into the summary: %q", at.Summary)
		}
	}
	a = Collect(context.Background(), gone, Request{Package: "com.fixthis.demo"})
	if a.Status != StatusUnsupported || a.Failure != ReasonNoDevice {
		t.Errorf("no device: %+v", a)
	}
	a = Collect(context.Background(), gone, Request{Serial: "s"})
	if a.Status != StatusUnsupported || a.Failure != ReasonNoPackage {
		t.Errorf("no package: %+v", a)
	}
	odd := fakeShell{answers: map[string]fakeAnswer{"": {out: "Can't find service: x\n"}, "logcat": {code: 1}}}
	a = Collect(context.Background(), odd, Request{Serial: "s", Package: "com.fixthis.demo"})
	if a.Attachment(KindFrames).Reason != ReasonUnparsable || a.Attachment(KindLogcat).Reason != ReasonCommandFailed || a.Failure != ReasonCommandFailed {
		t.Errorf("odd output: %+v", a)
	}
}

// Every reason reads in words on every collector's summary; one with no words
// of its own reads as a failed command.
func TestDescribeSaysEachReason(t *testing.T) {
	for _, tc := range []struct {
		kind Kind
		r    Reason
		want string
	}{
		{KindLogcat, ReasonNoDevice, "no log: no device selected"},
		{KindFrames, ReasonNoPackage, "no frame stats: the app's package is not known"},
		{KindMemory, ReasonProcessNotRunning, "no memory stats: the app's process is not running"},
		{KindNetwork, ReasonTimeout, "no network calls: the device did not answer in time"},
		{KindLogcat, ReasonDeviceGone, "no log: the device disconnected"},
		{KindFrames, ReasonUnparsable, "no frame stats: the device printed a format FixThis does not know"},
		{KindMemory, ReasonCommandFailed, "no memory stats: the command failed"},
		{KindNetwork, ReasonStorageFailed, "no network calls: the command failed"},
		{KindLogcat, ReasonNone, "no log: the command failed"},
	} {
		if got := describe(tc.kind, tc.r); got != tc.want {
			t.Errorf("describe(%s, %q) = %q, want %q", tc.kind, tc.r, got, tc.want)
		}
	}
}

func TestStoreRejectsEscapingIDs(t *testing.T) {
	st := testStore(t)
	for _, ids := range [][2]string{{"../x", "c"}, {"s", "../../etc"}, {"", "c"}, {"s", "a/b"}} {
		if _, _, err := st.Dir(ids[0], ids[1]); err == nil {
			t.Errorf("Dir(%q, %q) accepted", ids[0], ids[1])
		}
	}
	sh := fakeShell{answers: map[string]fakeAnswer{"": {out: readTestdata(t, "meminfo_api34.txt")}}}
	a := Collect(context.Background(), sh, Request{Serial: "s", Package: "com.fixthis.demo", Store: st, SessionID: "../up"})
	for _, at := range a.Attachments {
		if at.Artifact != "" {
			t.Errorf("%s stored at %q", at.Kind, at.Artifact)
		}
	}
	if !slices.Contains(a.Warnings, "memory-storage-failed") {
		t.Errorf("warnings %v", a.Warnings)
	}
}

func TestWarningsAreBounded(t *testing.T) {
	var in []string
	for i := range 20 {
		in = append(in, fmt.Sprintf("w%d", i%12))
	}
	if got := boundWarnings(in); len(got) != MaxWarnings || got[0] != "w0" {
		t.Errorf("%v", got)
	}
}

// An older logcat refuses the crash buffer and the epoch time: the collector asks
// again for the default buffers' newest lines.
func TestLogcatFallsBackOnOldDevices(t *testing.T) {
	sh := fakeShell{answers: map[string]fakeAnswer{
		"pidof ":                     {code: 1},
		"logcat -d -v threadtime -b": {code: 1},
		logcatFallbackCommand:        {out: readTestdata(t, "logcat_anr.txt")},
		"dumpsys ":                   {out: readTestdata(t, "meminfo_api19.txt")},
	}}
	a := Collect(context.Background(), sh, Request{Serial: "s", Package: "com.fixthis.demo"})
	if at := a.Attachment(KindLogcat); at.Status != StatusComplete || at.Logcat.ANR == nil {
		t.Errorf("logcat %+v", at)
	}
}

func TestLogcatCommandUsesEpochTime(t *testing.T) {
	got := logcatCommand(time.UnixMilli(1764582071005))
	if got != "logcat -d -v threadtime -b main,system,crash -t 1764582071.005" {
		t.Errorf("%s", got)
	}
}

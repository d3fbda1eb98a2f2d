// The programs tools outside FixThis run on a phone (mobilecli's agent staging, the
// adb client's logcat wrapper) and the runtime lines a dump leaves in logcat.
package android

import (
	"bytes"
	"context"
	"io"
	"slices"
	"strings"
	"testing"
)

func demoDevice(t *testing.T) *Device {
	t.Helper()
	p, ph, err := LoadScenario("demo")
	if err != nil {
		t.Fatal(err)
	}
	d, err := New(Config{Profile: p, Phone: ph})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func run(d *Device, script string) (string, int) {
	var out, errs bytes.Buffer
	st := d.Shell(context.Background(), script, bytes.NewReader(nil), &out, &errs)
	return out.String() + errs.String(), st
}

// The sequence mobilecli runs to stage its agent in a debuggable app, answered as
// toybox on a phone answers it.
func TestFileCommandsAsMobilecliRunsThem(t *testing.T) {
	d := demoDevice(t)
	const app = "/data/user/0/com.fixthis.demo"
	if err := d.FS().WriteFile("/data/local/tmp/agent.so.tmp", []byte("ELF"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, s := range []struct {
		script string
		out    string
		status int
	}{
		{"mv -f /data/local/tmp/agent.so.tmp /data/local/tmp/agent.so", "", 0},
		{"run-as com.fixthis.demo pwd", app + "\n", 0},
		{"run-as com.fixthis.demo mkdir -p " + app + "/agent", "", 0},
		{"run-as com.fixthis.demo cp /data/local/tmp/agent.so " + app + "/agent/agent.so", "", 0},
		{"run-as com.fixthis.demo chmod 755 " + app + "/agent/agent.so", "", 0},
		{"cp /data/local/tmp/agent.so " + app + "/stolen.so", "cp: " + app + "/stolen.so: Permission denied\n", 1},
		{"mv /data/local/tmp/missing /data/local/tmp/x", "mv: /data/local/tmp/missing: No such file or directory\n", 1},
		{"pkill -f '[D]eviceServer'; echo $?", "1\n", 0},
		{"appops set com.android.shell android:mock_location default", "", 0},
	} {
		if out, st := run(d, s.script); out != s.out || st != s.status {
			t.Errorf("%q: %q, exit %d; want %q, exit %d", s.script, out, st, s.out, s.status)
		}
	}
	files := d.FS().Paths()
	if slices.Contains(files, "/data/local/tmp/agent.so.tmp") || !slices.Contains(files, "/data/local/tmp/agent.so") {
		t.Errorf("mv left %v", files)
	}
	fi, err := d.FS().Stat(app + "/agent/agent.so")
	if err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("copied agent: %+v, %v; want mode 755", fi, err)
	}
}

// Each dump leaves the runtime's start in logcat, as on a phone, so a bench can count
// the dumps from outside.
func TestUIAutomatorDumpLogsItsRuntime(t *testing.T) {
	d := demoDevice(t)
	count := func() int {
		out, _ := run(d, "logcat -d -s AndroidRuntime")
		return strings.Count(out, "Calling main entry com.android.commands.uiautomator.Launcher")
	}
	before := count()
	for range 2 {
		d.Shell(context.Background(), "uiautomator dump /dev/tty", bytes.NewReader(nil), io.Discard, io.Discard)
	}
	if got := count() - before; got != 2 {
		t.Errorf("logcat shows %d uiautomator runtimes after 2 dumps, want 2", got)
	}
}

// `adb logcat` wraps its command line in export and exec.
func TestLogcatAsTheADBClientSendsIt(t *testing.T) {
	d := demoDevice(t)
	var out, errs bytes.Buffer
	st := d.Shell(context.Background(), `export ANDROID_LOG_TAGS="''"; exec logcat -d -s ActivityManager`, bytes.NewReader(nil), &out, &errs)
	if st != 0 || errs.Len() > 0 || !strings.Contains(out.String(), "ActivityManager") {
		t.Errorf("exit %d, stderr %q, stdout %q", st, errs.String(), out.String())
	}
}

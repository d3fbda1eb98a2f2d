// Pinned outputs, and `am crash` in the log and the process list.
package android_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fixthis/adb/adbtest"
	"fixthis/sim"
)

func TestPinnedOutputsAnswerByLongestPrefix(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"logcat.txt":                    "from logcat.txt\n",
		"dumpsys.txt":                   "from dumpsys.txt\n",
		"dumpsys_gfxinfo.txt":           "from dumpsys_gfxinfo.txt\n",
		"dumpsys_gfxinfo_com.x.y.txt":   "from dumpsys_gfxinfo_com.x.y.txt\n",
		"notes.md":                      "not an output\n",
		"dumpsys_meminfo_com.other.txt": "from the other app\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := adbtest.StartServer(t)
	dev := srv.ConnectSim(t, sim.Options{Scenario: "demo", LatencyScale: 0, Outputs: dir})
	for _, c := range []struct{ cmd, want string }{
		{"logcat -d -v threadtime -b main,system,crash -t '1764582071.005'", "from logcat.txt"},
		{"dumpsys   gfxinfo com.x.y framestats", "from dumpsys_gfxinfo_com.x.y.txt"},
		{"dumpsys gfxinfo com.fixthis.demo", "from dumpsys_gfxinfo.txt"},
		{"dumpsys meminfo com.fixthis.demo", "from dumpsys.txt"},
	} {
		if got := srv.MustADB(t, "-s", dev.Serial(), "shell", c.cmd); strings.TrimSpace(got) != c.want {
			t.Errorf("%q answered %q, want %q", c.cmd, got, c.want)
		}
	}
	// Commands without a pinned output run on the device as usual.
	if got := srv.MustADB(t, "-s", dev.Serial(), "shell", "getprop", "ro.product.model"); strings.TrimSpace(got) != dev.Model() {
		t.Errorf("getprop answered %q", got)
	}
	// The directory is read per command.
	if err := os.WriteFile(filepath.Join(dir, "getprop_ro.product.model.txt"), []byte("Pixel Replay\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := srv.MustADB(t, "-s", dev.Serial(), "shell", "getprop ro.product.model"); got != "Pixel Replay\n" {
		t.Errorf("after pinning getprop answered %q", got)
	}
	// A .delay file slows the commands it prefixes, pinned or not.
	if err := os.WriteFile(filepath.Join(dir, "dumpsys_gfxinfo.delay"), []byte("300ms\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	if got := srv.MustADB(t, "-s", dev.Serial(), "shell", "dumpsys gfxinfo com.x.y"); strings.TrimSpace(got) != "from dumpsys_gfxinfo_com.x.y.txt" {
		t.Errorf("delayed command answered %q", got)
	}
	if d := time.Since(t0); d < 300*time.Millisecond {
		t.Errorf("delayed command took %v", d)
	}
	t0 = time.Now()
	srv.MustADB(t, "-s", dev.Serial(), "shell", "dumpsys meminfo x")
	if d := time.Since(t0); d >= 300*time.Millisecond {
		t.Errorf("an undelayed command took %v", d)
	}
}

func TestMissingOutputsDirFailsAtStart(t *testing.T) {
	_, err := sim.Start(t.Context(), sim.Options{Scenario: "demo", Outputs: filepath.Join(t.TempDir(), "nope")})
	if err == nil || !strings.Contains(err.Error(), "outputs directory") {
		t.Fatalf("err = %v", err)
	}
}

func TestAmCrashLogsAFatalExceptionAndEndsTheProcess(t *testing.T) {
	srv := adbtest.StartServer(t)
	dev := srv.ConnectSim(t, sim.Options{Scenario: "demo", LatencyScale: 0})
	s := dev.Serial()
	pkg := dev.Profile().App.Package
	pid := strings.TrimSpace(srv.MustADB(t, "-s", s, "shell", "pidof", pkg))
	if pid == "" {
		t.Fatal("the demo app is not running at start")
	}
	mem := srv.MustADB(t, "-s", s, "shell", "dumpsys", "meminfo", pkg)
	if !strings.Contains(mem, "** MEMINFO in pid "+pid+" ["+pkg+"] **") || !strings.Contains(mem, "TOTAL PSS:") {
		t.Errorf("meminfo of the running app:\n%s", mem)
	}
	gfx := srv.MustADB(t, "-s", s, "shell", "dumpsys", "gfxinfo", pkg)
	if !strings.Contains(gfx, "** Graphics info for pid "+pid+" ["+pkg+"] **") || !strings.Contains(gfx, "99th percentile: ") {
		t.Errorf("gfxinfo of the running app:\n%s", gfx)
	}

	time.Sleep(20 * time.Millisecond) // so the boot lines are strictly older than since
	since := time.Now()
	srv.MustADB(t, "-s", s, "shell", "am", "crash", pkg)

	crash := srv.MustADB(t, "-s", s, "shell", "logcat", "-d", "-b", "crash")
	wantStart := "--------- beginning of crash\n"
	if !strings.HasPrefix(crash, wantStart) {
		t.Errorf("crash buffer starts %q", crash)
	}
	for _, want := range []string{
		fmt.Sprintf(" %5s %5s E AndroidRuntime: FATAL EXCEPTION: main\n", pid, pid),
		"E AndroidRuntime: Process: " + pkg + ", PID: " + pid + "\n",
		"E AndroidRuntime: android.app.RemoteServiceException$CrashedByAdbException: shell-induced crash\n",
		"E AndroidRuntime: \tat android.app.ActivityThread.throwRemoteServiceException(ActivityThread.java:2153)\n",
	} {
		if !strings.Contains(crash, want) {
			t.Errorf("crash buffer lacks %q:\n%s", want, crash)
		}
	}
	if out := srv.ADB(t, "-s", s, "shell", "pidof", pkg); strings.TrimSpace(string(out.Stdout)) != "" || out.ExitCode == 0 {
		t.Errorf("pidof after the crash: %q exit %d", out.Stdout, out.ExitCode)
	}
	for _, svc := range []string{"meminfo", "gfxinfo"} {
		if got := srv.MustADB(t, "-s", s, "shell", "dumpsys", svc, pkg); got != "No process found for: "+pkg+"\n" {
			t.Errorf("dumpsys %s after the crash: %q", svc, got)
		}
	}
	// The merged default buffers since just before the crash: system lines
	// (the death) and the crash, each buffer introduced once.
	ms := since.UnixMilli()
	all := srv.MustADB(t, "-s", s, "shell", fmt.Sprintf("logcat -d -v threadtime -b main,system,crash -t '%d.%03d'", ms/1000, ms%1000))
	for _, want := range []string{"--------- beginning of crash\n", "--------- beginning of system\n", "I ActivityManager: Process " + pkg + " (pid " + pid + ") has died"} {
		if strings.Count(all, want) != 1 {
			t.Errorf("logcat since the crash has %q %d times:\n%s", want, strings.Count(all, want), all)
		}
	}
	if strings.Contains(all, "System now ready") {
		t.Errorf("-t <time> kept boot lines:\n%s", all)
	}
	// A read with nothing in it prints nothing at all, as logcat does.
	future := time.Now().Add(time.Hour).Unix()
	if got := srv.MustADB(t, "-s", s, "shell", fmt.Sprintf("logcat -d -t '%d.000'", future)); got != "" {
		t.Errorf("empty read printed %q", got)
	}
	if out := srv.ADB(t, "-s", s, "shell", "logcat -d -t 'yesterday'"); out.ExitCode == 0 {
		t.Errorf("a bad -t value was accepted")
	}
}

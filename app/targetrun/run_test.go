package targetrun_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"fixthis/adb/adbtest"
	"fixthis/app/project"
	"fixthis/app/targetrun"
	"fixthis/internal/apktest"
	"fixthis/sim"
)

// trailhead is the demo phone's app as a newer debug build.
var trailhead = apktest.App{Package: "com.fixthis.demo", VersionCode: 250, VersionName: "2.5.0", MinSdk: 26, Launcher: ".MainActivity"}

type rig struct {
	srv    *adbtest.Server
	phone  *sim.Device
	dev    targetrun.Device
	dir    string
	proj   *project.Project
	serial string
}

func newRig(t *testing.T) *rig {
	t.Helper()
	p := adbtest.StartPhone(t, sim.Options{})
	dir := apktest.StubProject(t, "../../examples/trailhead", trailhead)
	proj, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return &rig{srv: p.Server, phone: p.Device, dev: p.Client.Device(p.Serial()), dir: dir, proj: proj, serial: p.Serial()}
}

// progressLog collects what a run reported.
type progressLog struct {
	mu sync.Mutex
	ps []targetrun.Progress
}

func (l *progressLog) add(p targetrun.Progress) { l.mu.Lock(); l.ps = append(l.ps, p); l.mu.Unlock() }

func (l *progressLog) stages() []string {
	var out []string
	for _, p := range l.ps {
		if len(out) == 0 || out[len(out)-1] != string(p.Stage) {
			out = append(out, string(p.Stage))
		}
	}
	return out
}

func (r *rig) run(t *testing.T, opts targetrun.Options) (targetrun.Result, *progressLog, error) {
	t.Helper()
	log := &progressLog{}
	opts.Project, opts.Serial, opts.Progress = r.proj, r.serial, log.add
	if opts.FocusTimeout == 0 {
		opts.FocusTimeout = 3 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := targetrun.Run(ctx, r.dev, opts)
	return res, log, err
}

func (r *rig) installedVersion(t *testing.T) string {
	t.Helper()
	in, ok, err := targetrun.ReadInstalled(context.Background(), r.dev, "com.fixthis.demo")
	if err != nil || !ok {
		t.Fatalf("read installed: %v %v", ok, err)
	}
	return in.VersionName
}

func TestRunBuildsInstallsLaunchesConfirms(t *testing.T) {
	r := newRig(t)
	r.srv.MustADB(t, "-s", r.serial, "shell", "input", "keyevent", "HOME")
	start := time.Now()
	res, log, err := r.run(t, targetrun.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Built || !res.Installed || !res.Foreground || res.ApplicationID != "com.fixthis.demo" || res.LaunchMs <= 0 {
		t.Errorf("result = %+v", res)
	}
	if got := strings.Join(log.stages(), ","); got != "build,install,launch,confirm" {
		t.Errorf("stages = %s", got)
	}
	var tasks, installFractions int
	for _, p := range log.ps {
		if p.Task == ":app:compileDebugKotlin" {
			tasks++
		}
		if p.Stage == targetrun.StageInstall && p.Fraction > 0 {
			installFractions++
		}
	}
	if tasks != 1 || installFractions == 0 {
		t.Errorf("progress: %d compile task lines, %d install fractions", tasks, installFractions)
	}
	if v := r.installedVersion(t); v != "2.5.0" {
		t.Errorf("installed versionName = %s, want 2.5.0", v)
	}
	if st := r.phone.Phone().State(); st.ForegroundPackage != "com.fixthis.demo" {
		t.Errorf("front package = %s", st.ForegroundPackage)
	}
	in, _, _ := targetrun.ReadInstalled(context.Background(), r.dev, "com.fixthis.demo")
	if in.LastUpdate.Before(start.Add(-2*time.Second)) || in.LastUpdate.After(time.Now().Add(2*time.Second)) {
		t.Errorf("lastUpdateTime %v is not the install time (run started %v)", in.LastUpdate, start)
	}

	// A second build of the same task knows how many tasks to expect.
	_, log, err = r.run(t, targetrun.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sawFraction := false
	for _, p := range log.ps {
		sawFraction = sawFraction || (p.Stage == targetrun.StageBuild && p.Fraction > 0 && p.Fraction < 1)
	}
	if !sawFraction {
		t.Error("the second build reported no build fraction")
	}
}

func TestRunFailedBuildInstallsNothing(t *testing.T) {
	r := newRig(t)
	r.srv.MustADB(t, "-s", r.serial, "shell", "input", "keyevent", "HOME")
	apktest.SetStubFailure(t, r.dir, true)
	res, log, err := r.run(t, targetrun.Options{})
	var be *targetrun.BuildError
	if !errors.As(err, &be) {
		t.Fatalf("err = %v, want a BuildError", err)
	}
	msg := err.Error()
	for _, want := range []string{"MainActivity.kt:42:17 Unresolved reference 'TrailCard'.", "Execution failed for task ':app:compileDebugKotlin'.", "exit 1"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "Run with --stacktrace") {
		t.Errorf("the error repeats Gradle's hints:\n%s", msg)
	}
	if res.Built || res.Installed || res.Foreground {
		t.Errorf("result = %+v", res)
	}
	if got := strings.Join(log.stages(), ","); got != "build" {
		t.Errorf("stages after a failed build = %s", got)
	}
	if v := r.installedVersion(t); v != "2.4.1" {
		t.Errorf("a failed build changed the installed app to %s", v)
	}
	if st := r.phone.Phone().State(); st.ForegroundPackage == "com.fixthis.demo" {
		t.Error("a failed build launched the app")
	}
}

func TestRunNoGradlew(t *testing.T) {
	r := newRig(t)
	os.Remove(filepath.Join(r.dir, "gradlew"))
	_, _, err := r.run(t, targetrun.Options{})
	if !errors.Is(err, targetrun.ErrNoGradlew) || !strings.Contains(err.Error(), "gradle wrapper") || !strings.Contains(err.Error(), "--no-build") {
		t.Fatalf("err = %v", err)
	}
}

func TestRunSignatureMismatchAndReinstall(t *testing.T) {
	r := newRig(t)
	if _, _, err := r.run(t, targetrun.Options{}); err != nil {
		t.Fatal(err)
	}
	other := trailhead
	other.Key = "a colleague's debug key"
	apktest.SetStubAPK(t, r.dir, other)
	_, _, err := r.run(t, targetrun.Options{})
	var ie *targetrun.InstallError
	if !errors.As(err, &ie) || ie.Code != "INSTALL_FAILED_UPDATE_INCOMPATIBLE" || !strings.Contains(err.Error(), "--reinstall") || !strings.Contains(err.Error(), "data") {
		t.Fatalf("err = %v", err)
	}
	res, log, err := r.run(t, targetrun.Options{Reinstall: true})
	if err != nil || !res.Installed || !res.Foreground {
		t.Fatalf("reinstall: %+v %v", res, err)
	}
	uninstalled := false
	for _, p := range log.ps {
		uninstalled = uninstalled || strings.Contains(p.Message, "uninstalling com.fixthis.demo")
	}
	if !uninstalled {
		t.Error("the reinstall did not say it uninstalls first")
	}
}

func TestRunNoBuildBringsTheAppBack(t *testing.T) {
	r := newRig(t)
	r.srv.MustADB(t, "-s", r.serial, "shell", "input", "keyevent", "HOME")
	res, log, err := r.run(t, targetrun.Options{NoBuild: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Built || res.Installed || !res.Foreground || res.ApplicationID != "com.fixthis.demo" {
		t.Errorf("result = %+v", res)
	}
	if got := strings.Join(log.stages(), ","); got != "launch,confirm" {
		t.Errorf("stages = %s", got)
	}
}

func TestWaitForegroundSaysWhatIsInFront(t *testing.T) {
	r := newRig(t)
	notes := filepath.Join(t.TempDir(), "notes.apk")
	os.WriteFile(notes, apktest.Build(apktest.App{Package: "org.example.notes", VersionCode: 1, VersionName: "1", Launcher: ".Notes"}), 0o644)
	r.srv.MustADB(t, "-s", r.serial, "install", notes)
	r.srv.MustADB(t, "-s", r.serial, "shell", "am", "start", "-n", "org.example.notes/.Notes")
	err := targetrun.WaitForeground(context.Background(), r.dev, "com.fixthis.demo", 300*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "org.example.notes is in front") {
		t.Fatalf("err = %v", err)
	}
	if _, err := targetrun.Launch(context.Background(), r.dev, "com.fixthis.demo/com.fixthis.demo.Missing"); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("launching a missing activity: %v", err)
	}
}

// noCmd is a device without the cmd service (before Android 7): installs go
// through a push and `pm install FILE`.
type noCmd struct{ targetrun.Device }

func (noCmd) Features(context.Context) ([]string, error) { return []string{"shell_v2"}, nil }

func TestInstallFallsBackToPushAndPmInstall(t *testing.T) {
	r := newRig(t)
	apk := filepath.Join(t.TempDir(), "app.apk")
	os.WriteFile(apk, apktest.Build(trailhead), 0o644)
	var msgs []string
	err := targetrun.Install(context.Background(), noCmd{r.dev}, apk, func(p targetrun.Progress) { msgs = append(msgs, p.Message) })
	if err != nil {
		t.Fatal(err)
	}
	if v := r.installedVersion(t); v != "2.5.0" {
		t.Errorf("installed versionName = %s after the push install", v)
	}
	if out := r.srv.MustADB(t, "-s", r.serial, "shell", "ls", "/data/local/tmp"); strings.Contains(out, "fixthis-") {
		t.Errorf("the pushed APK was left behind: %q", out)
	}

	newer := trailhead
	newer.MinSdk = 99
	os.WriteFile(apk, apktest.Build(newer), 0o644)
	err = targetrun.Install(context.Background(), r.dev, apk, func(targetrun.Progress) {})
	var ie *targetrun.InstallError
	if !errors.As(err, &ie) || ie.Code != "INSTALL_FAILED_OLDER_SDK" || !strings.Contains(err.Error(), "minSdk") {
		t.Errorf("minSdk 99 on an API 34 phone: %v", err)
	}
}

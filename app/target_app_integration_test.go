package app

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"fixthis/app/store"
	"fixthis/app/targetwatch"
	"fixthis/internal/apktest"
	"fixthis/internal/eventually"
)

// newAppEnv is a test env whose project is a copy of examples/trailhead with a stub
// Gradle wrapper that builds a 2.5.0 of the demo phone's app.
func newAppEnv(t *testing.T) (*testEnv, string) {
	t.Helper()
	dir := apktest.StubProject(t, "../examples/trailhead",
		apktest.App{Package: "com.fixthis.demo", VersionCode: 250, VersionName: "2.5.0", MinSdk: 26, Launcher: ".MainActivity"})
	return newTestEnvIn(t, dir), dir
}

func TestTargetAppFollowsTheDevice(t *testing.T) {
	e, _ := newAppEnv(t)
	var doc targetwatch.Doc
	eventually.True(t, 5*time.Second, "the app installed and in front", func() bool {
		e.mustJSON("GET", "/api/target-app", nil, &doc)
		return doc.Installed && doc.Foreground
	})
	if !doc.Available || doc.ApplicationID != "com.fixthis.demo" || doc.Label != "Trailhead" || doc.VersionName != "2.4.1" ||
		doc.InstalledAt == nil || doc.FocusedPackage != "com.fixthis.demo" || doc.Module != ":app" || !doc.Gradlew {
		t.Errorf("GET /api/target-app = %+v", doc)
	}

	sse := e.subscribe()
	e.adbServer.MustADB(t, "-s", e.sim.Serial(), "shell", "input", "keyevent", "HOME")
	pressed := time.Now()
	ev := sse.next(3*time.Second, "target-app-updated", func(ev sseEvent) bool {
		return !decodeEvent[targetwatch.Doc](t, ev).Foreground
	})
	if lag := ev.At.Sub(pressed); lag > 2*time.Second {
		t.Errorf("target-app-updated came %s after HOME, want within 2 s", lag)
	} else {
		t.Logf("target-app-updated %s after HOME", lag.Round(time.Millisecond))
	}
	if d := decodeEvent[targetwatch.Doc](t, ev); d.FocusedPackage != "com.google.android.apps.nexuslauncher" {
		t.Errorf("focused package after HOME = %q", d.FocusedPackage)
	}

	var res struct {
		Foreground bool `json:"foreground"`
		LaunchMs   int  `json:"launchMs"`
	}
	e.mustJSON("POST", "/api/target-app/launch", nil, &res)
	if !res.Foreground {
		t.Errorf("launch result = %+v", res)
	}
	sse.next(3*time.Second, "target-app-updated", func(ev sseEvent) bool { return decodeEvent[targetwatch.Doc](t, ev).Foreground })
}

func TestTargetAppRunOverTheAPI(t *testing.T) {
	e, dir := newAppEnv(t)
	sse := e.subscribe()
	var started targetwatch.RunStarted
	if r := e.do("POST", "/api/target-app/run", nil, nil); r.Status != 202 {
		t.Fatalf("POST /api/target-app/run = %d %s", r.Status, r.Body)
	} else {
		r.decode(t, &started)
	}
	if r := e.do("POST", "/api/target-app/run", nil, nil); r.Status != 409 || !strings.Contains(string(r.Body), "app_run_busy") {
		t.Errorf("a second run while one runs = %d %s", r.Status, r.Body)
	}
	stages := map[string]bool{}
	deadline := time.After(30 * time.Second)
	for {
		var ev sseEvent
		select {
		case ev = <-sse.C:
		case <-deadline:
			t.Fatal("no target-app-run-finished within 30 s")
		}
		if ev.Type != "target-app-run-progress" && ev.Type != "target-app-run-finished" {
			continue
		}
		if ev.Type == "target-app-run-progress" {
			p := decodeEvent[targetwatch.RunProgress](t, ev)
			if p.RunID != started.RunID {
				t.Fatalf("progress for run %q, want %q", p.RunID, started.RunID)
			}
			stages[string(p.Stage)] = true
			continue
		}
		fin := decodeEvent[targetwatch.RunFinished](t, ev)
		if !fin.OK || !fin.Result.Installed || !fin.Result.Foreground {
			t.Fatalf("finished = %+v", fin)
		}
		break
	}
	for _, s := range []string{"build", "install", "launch", "confirm"} {
		if !stages[s] {
			t.Errorf("no progress for stage %s (got %v)", s, stages)
		}
	}
	sse.next(5*time.Second, "target-app-updated", func(ev sseEvent) bool {
		d := decodeEvent[targetwatch.Doc](t, ev)
		return d.VersionName == "2.5.0" && d.Foreground && !d.SourcesNewerThanInstall
	})

	apktest.SetStubFailure(t, dir, true)
	if r := e.do("POST", "/api/target-app/run", nil, nil); r.Status != 202 {
		t.Fatalf("POST /api/target-app/run = %d %s", r.Status, r.Body)
	}
	ev := sse.next(30*time.Second, "target-app-run-finished", nil)
	fin := decodeEvent[targetwatch.RunFinished](t, ev)
	if fin.OK || fin.Stage != "build" || !strings.Contains(strings.Join(fin.Lines, "\n"), "Unresolved reference 'TrailCard'") ||
		!strings.Contains(fin.Error, "nothing was installed") {
		t.Errorf("failed run = %+v", fin)
	}
}

func TestTargetAppWithoutAnAppModule(t *testing.T) {
	e := newTestEnv(t)
	var doc targetwatch.Doc
	e.mustJSON("GET", "/api/target-app", nil, &doc)
	if doc.Available || !strings.Contains(doc.Problem, "com.android.application") {
		t.Errorf("GET /api/target-app in an empty folder = %+v", doc)
	}
	if r := e.do("POST", "/api/target-app/run", nil, nil); r.Status != 404 || !strings.Contains(string(r.Body), "APP_NOT_AVAILABLE") {
		t.Errorf("run without an app module = %d %s", r.Status, r.Body)
	}
}

// A handoff records the build on the phone and the project's git state, and the
// prompt's header names them.
func TestHandoffRecordsTheAppBuild(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed (apt-get install git); the recorded build's commit needs it")
	}
	e, dir := newAppEnv(t)
	git := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "start")
	head := git("rev-parse", "HEAD")
	os.WriteFile(filepath.Join(dir, "app", "src", "main", "res", "values", "strings.xml"), []byte("<resources/>\n"), 0o644)

	sessionID := e.createSession("Build")
	_, saved, _ := e.saveDrafts(sessionID)
	var out struct {
		Session store.Session `json:"session"`
		Prompt  string        `json:"prompt"`
	}
	e.mustJSON("POST", "/api/agent-handoffs", map[string]any{"sessionId": sessionID, "itemIds": itemIDs(saved.Items)}, &out)
	want := regexp.MustCompile("(?m)^- App build: `com\\.fixthis\\.demo` 2\\.4\\.1 \\(versionCode 241\\), installed \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC; source: git " + head[:8] + ", uncommitted changes$")
	if !want.MatchString(out.Prompt) {
		t.Errorf("the prompt's header lacks the build:\n%s", out.Prompt)
	}
	var sess struct {
		Session store.Session `json:"session"`
	}
	e.mustJSON("GET", "/api/sessions/"+sessionID, nil, &sess)
	b := sess.Session.AppBuild
	if b == nil || b.Package != "com.fixthis.demo" || b.VersionCode != 241 || b.GitHead != head || !b.GitDirty || b.LastUpdateTime.IsZero() {
		t.Errorf("recorded build = %+v", b)
	}
}

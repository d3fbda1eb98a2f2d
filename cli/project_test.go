package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"fixthis/adb/adbtest"
	"fixthis/app/targetrun"
	"fixthis/internal/apktest"
	"fixthis/sim"
)

func TestProjectCommand(t *testing.T) {
	code, out, errOut := run(t, nil, "project", "--json", "--project-dir", "../examples/trailhead")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		ProjectDir string `json:"projectDir"`
		Gradlew    *bool  `json:"gradlew"`
		Modules    []struct {
			Path, ApplicationID, Namespace, LauncherActivity, VersionName string
			MinSdk                                                        int
			Flavors                                                       []string
		} `json:"modules"`
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	m := doc.Modules
	if doc.Gradlew == nil || *doc.Gradlew || len(m) != 1 || m[0].Path != ":app" || m[0].ApplicationID != "com.fixthis.demo" ||
		m[0].LauncherActivity != "com.fixthis.demo.MainActivity" || m[0].MinSdk != 26 || m[0].Flavors == nil || doc.Warnings == nil {
		t.Errorf("project document = %s", out)
	}

	code, out, _ = run(t, nil, "project", "--project-dir", "../examples/trailhead")
	if code != 0 || !strings.Contains(out, "applicationId      com.fixthis.demo") || !strings.Contains(out, "gradlew: none") {
		t.Errorf("text output:\n%s", out)
	}

	code, _, errOut = run(t, nil, "project", "--project-dir", t.TempDir())
	if code != 1 || !strings.Contains(errOut, "no Android application module") || !strings.Contains(errOut, "com.android.application") {
		t.Errorf("an empty folder: exit %d, %q", code, errOut)
	}
}

func TestRunCommand(t *testing.T) {
	srv := adbtest.StartServer(t)
	srv.ConnectSim(t, sim.Options{})
	dir := apktest.StubProject(t, "../examples/trailhead",
		apktest.App{Package: "com.fixthis.demo", VersionCode: 250, VersionName: "2.5.0", MinSdk: 26, Launcher: ".MainActivity"})
	runCLI := func(args ...string) (int, string, string) {
		srv.Setenv(t)
		var out, errb bytes.Buffer
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		code := Run(ctx, Env{Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}, args)
		return code, out.String(), errb.String()
	}
	code, out, errOut := runCLI("run", "--project-dir", dir, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	if res["applicationId"] != "com.fixthis.demo" || res["built"] != true || res["installed"] != true || res["foreground"] != true || res["launchMs"].(float64) <= 0 {
		t.Errorf("document = %s", out)
	}
	// Not a terminal: Gradle's lines are passed through as they come.
	if !strings.Contains(errOut, "> Task :app:compileDebugKotlin") || !strings.Contains(errOut, "BUILD SUCCESSFUL") {
		t.Errorf("stderr lacks Gradle's output:\n%s", errOut)
	}

	apktest.SetStubFailure(t, dir, true)
	code, _, errOut = runCLI("run", "--project-dir", dir)
	if code != 1 || !strings.Contains(errOut, "nothing was installed") || !strings.Contains(errOut, "Unresolved reference 'TrailCard'") {
		t.Errorf("failed build: exit %d\n%s", code, errOut)
	}

	code, out, errOut = runCLI("run", "--project-dir", dir, "--no-build")
	if code != 0 || !strings.Contains(out, "com.fixthis.demo launched on") {
		t.Errorf("--no-build: exit %d\n%s\n%s", code, out, errOut)
	}
}

// On a terminal the run shows one redrawn line: stage, bar, task; and clears it.
func TestRunPrinterOnATerminal(t *testing.T) {
	var buf bytes.Buffer
	p := &runPrinter{w: &buf, tty: true}
	p.progress(targetrun.Progress{Stage: targetrun.StageBuild, Line: "> Task :app:compileDebugKotlin", Task: ":app:compileDebugKotlin", Tasks: 19, Fraction: 0.5})
	p.progress(targetrun.Progress{Stage: targetrun.StageInstall, Message: "installing app-debug.apk (1 kB)", Fraction: 1})
	p.finish()
	out := buf.String()
	for _, want := range []string{"\r\033[Kbuild    [██████████          ] 19 tasks  :app:compileDebugKotlin", "\r\033[Kinstall  [████████████████████] installing app-debug.apk (1 kB)", "\r\033[K"} {
		if !strings.Contains(out, want) {
			t.Errorf("terminal output %q lacks %q", out, want)
		}
	}
	if strings.Contains(out, "\n") {
		t.Errorf("the progress line printed a newline: %q", out)
	}
}

package agentdevice

import (
	"context"
	"testing"
	"time"

	"fixthis/app/errcode"
	"fixthis/app/targetrun"
	"fixthis/internal/apktest"
)

// fixthis_run_app runs the same build, install and launch as `fixthis run`: with a
// stub Gradle wrapper the demo app is rebuilt, installed on the simulated phone and
// brought to the front; a failing build returns Gradle's error as BUILD_FAILED.
func TestRunAppBuildsInstallsLaunches(t *testing.T) {
	e := newSimEnv(t)
	ctx := context.Background()
	serial := e.dev.Serial()
	project := apktest.StubProject(t, "../../examples/trailhead",
		apktest.App{Package: "com.fixthis.demo", VersionCode: 251, VersionName: "2.5.1", MinSdk: 26, Launcher: ".MainActivity"})
	// The app's run slot, as targetwatch keeps it: the console sees the agent's progress
	// and outcome, and a run already in progress refuses the agent's.
	var consoleStages []targetrun.Stage
	var finished []error
	busy := false
	trackRun := func() (func(targetrun.Progress), func(targetrun.Result, error), error) {
		if busy {
			return nil, nil, errcode.New(errcode.AppRunBusy, "run run-1 is still in progress")
		}
		return func(pr targetrun.Progress) {
				if len(consoleStages) == 0 || consoleStages[len(consoleStages)-1] != pr.Stage {
					consoleStages = append(consoleStages, pr.Stage)
				}
			}, func(_ targetrun.Result, err error) {
				finished = append(finished, err)
			}, nil
	}
	o := e.options()
	o.ProjectDir, o.AskTimeout, o.TrackRun = project, 200*time.Millisecond, trackRun
	o.Pick = func(context.Context, string) (Target, error) { return Target{Serial: serial, Demo: true}, nil }
	p := New(o)

	var stages []targetrun.Stage
	res, err := p.RunApp(ctx, "", RunAppInput{}, func(pr targetrun.Progress) {
		if len(stages) == 0 || stages[len(stages)-1] != pr.Stage {
			stages = append(stages, pr.Stage)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Built || !res.Installed || !res.Foreground || res.ApplicationID != "com.fixthis.demo" {
		t.Fatalf("run result %+v", res)
	}
	if len(stages) < 3 || stages[0] != targetrun.StageBuild {
		t.Fatalf("progress stages %v", stages)
	}

	if len(consoleStages) != len(stages) || len(finished) != 1 || finished[0] != nil {
		t.Fatalf("the console saw stages %v and outcomes %v; the agent saw %v", consoleStages, finished, stages)
	}

	apktest.SetStubFailure(t, project, true)
	if _, err := p.RunApp(ctx, "", RunAppInput{}, func(targetrun.Progress) {}); errcode.Of(err) != errcode.BuildFailed {
		t.Fatalf("failing build: %v", err)
	}
	if len(finished) != 2 || finished[1] == nil {
		t.Fatalf("the console was not told the build failed: %v", finished)
	}

	busy = true
	if _, err := p.RunApp(ctx, "", RunAppInput{}, func(targetrun.Progress) { t.Error("a refused run reported progress") }); errcode.Of(err) != errcode.AppRunBusy {
		t.Fatalf("while the console's run is in progress: %v, want APP_RUN_BUSY", err)
	}
	if len(finished) != 2 {
		t.Fatalf("a refused run finished a run: %v", finished)
	}
}

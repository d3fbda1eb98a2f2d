package agentdevice

import (
	"context"
	"testing"
	"time"

	"fixthis/adb"
	"fixthis/adb/adbtest"
	"fixthis/adb/sim"
	"fixthis/app/device"
	"fixthis/app/errcode"
	"fixthis/app/mcp"
	"fixthis/app/store"
	"fixthis/internal/apktest"
)

// fixthis_run_app runs the same build, install and launch as `fixthis run`: with a
// stub Gradle wrapper the demo app is rebuilt, installed on the simulated phone and
// brought to the front; a failing build returns Gradle's error as BUILD_FAILED.
func TestRunAppBuildsInstallsLaunches(t *testing.T) {
	srv := adbtest.StartServer(t)
	dev := srv.ConnectSim(t, sim.Options{Scenario: "demo", LatencyScale: 0, Logf: func(string, ...any) {}})
	client, err := adb.NewClient(adb.Options{Port: srv.Port})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := store.Open(ctx, t.TempDir(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	project := apktest.StubProject(t, "../../examples/trailhead",
		apktest.App{Package: "com.fixthis.demo", VersionCode: 251, VersionName: "2.5.1", MinSdk: 26, Launcher: ".MainActivity"})
	capturer := device.NewCapturer(client)
	defer capturer.Close(ctx)
	p := New(Options{ADB: client, Capturer: capturer, Store: st, ProjectDir: project, AskTimeout: 200 * time.Millisecond,
		Pick: func(context.Context, string) (Target, error) { return Target{Serial: dev.Serial(), Demo: true}, nil }})

	var stages []string
	res, err := p.RunApp(ctx, "", mcp.RunAppInput{}, func(pr mcp.RunProgress) {
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
	if len(stages) < 3 || stages[0] != "build" {
		t.Fatalf("progress stages %v", stages)
	}

	apktest.SetStubFailure(t, project, true)
	if _, err := p.RunApp(ctx, "", mcp.RunAppInput{}, func(mcp.RunProgress) {}); errcode.Of(err) != errcode.BuildFailed {
		t.Fatalf("failing build: %v", err)
	}
}

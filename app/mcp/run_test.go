package mcp

import (
	"context"
	"strings"
	"testing"

	"fixthis/app/agentdevice"
	"fixthis/app/targetrun"
)

// steppedRunner reports a build run's steps as targetrun does, then answers.
type steppedRunner struct{ steps []targetrun.Progress }

func (r steppedRunner) RunApp(_ context.Context, serial string, _ agentdevice.RunAppInput, progress func(targetrun.Progress)) (*targetrun.Result, error) {
	for _, p := range r.steps {
		progress(p)
	}
	return &targetrun.Result{ApplicationID: "com.fixthis.demo", Serial: serial, Built: true, Installed: true, Foreground: true,
		APK: "/tmp/app-debug.apk"}, nil
}

// fixthis_run_app tells a client that sent a progressToken each step that moved the
// run on or has a line to show, never the last one (it could arrive after the
// reply); a client without a token is told nothing, and both get the same answer.
func TestRunAppReportsProgress(t *testing.T) {
	runner := steppedRunner{steps: []targetrun.Progress{
		{Stage: targetrun.StageBuild, Task: ":app:compileDebugKotlin", Fraction: 0.2},
		{Stage: targetrun.StageBuild, Fraction: 0.2},
		{Stage: targetrun.StageInstall, Message: "installing", Fraction: 0.6},
		{Stage: targetrun.StageLaunch, Message: "launched", Fraction: 1},
	}}
	s := openStore(t, t.TempDir())
	for _, c := range []struct {
		token string
		want  string
	}{
		{"run-1", "20 build: :app:compileDebugKotlin|60 install: installing"},
		{"", ""},
	} {
		client := newClient(t, Deps{Store: s, Device: newDemoDevice(t, s), Runner: runner})
		res, lines := callWithProgress(t, client, "fixthis_run_app", map[string]any{}, c.token)
		if got := text(res); !strings.Contains(got, `"applicationId":"com.fixthis.demo"`) || strings.Contains(got, "app-debug.apk") {
			t.Errorf("token %q: answer %s", c.token, got)
		}
		if c.want == "" {
			if got := lines(); got != "" {
				t.Errorf("without a token: progress %q", got)
			}
			continue
		}
		waitForProgress(t, lines, c.want)
	}
}

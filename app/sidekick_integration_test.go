package app

import (
	"context"
	"regexp"
	"testing"
	"time"

	"fixthis/app/device"
	"fixthis/app/source"
	"fixthis/internal/eventually"
)

// The demo app carries the sidekick, so a freeze reads true Compose semantics through
// it. The device chip's × removes FixThis's forwards; selecting the device again must
// not leave freezes dialing the removed forward (and silently falling back to the much
// slower uiautomator dump).
func TestFreezeUsesSidekickAgainAfterDeviceCleared(t *testing.T) {
	env, serial := newSidekickEnv(t)
	env.mustJSON("POST", "/api/device/disconnect", nil, nil)
	env.mustJSON("POST", "/api/device/select", map[string]string{"serial": serial}, nil)
	if fr := env.freeze(); fr.TreeSource != "sidekick" {
		t.Errorf("freeze after × and re-select read the tree from %q, want sidekick (the cached sidekick still dials the forward × removed)", fr.TreeSource)
	}
}

// newSidekickEnv is a test env whose first freeze read the tree through the demo
// app's sidekick, live again; it returns the phone's serial.
func newSidekickEnv(t *testing.T) (*testEnv, string) {
	t.Helper()
	env := newTestEnv(t)
	if fr := env.freeze(); fr.TreeSource != "sidekick" {
		t.Fatalf("first freeze read the tree from %q, want sidekick", fr.TreeSource)
	}
	env.mustJSON("POST", "/api/preview/resume", nil, nil)
	return env, env.sim.Serial()
}

// `adb kill-server` (a common fix-it step) drops every forward and every connection
// through the server. Once the phone is back, a freeze must reach the sidekick again
// instead of redialling the dead forward and settling for uiautomator for good.
func TestFreezeUsesSidekickAgainAfterADBServerRestart(t *testing.T) {
	env, serial := newSidekickEnv(t)
	env.adbServer.Restart(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := env.sim.Connect(ctx, env.adbServer.Port); err != nil {
		t.Fatalf("reconnect %s after the restart: %v", serial, err)
	}
	env.waitDeviceOnline(serial, 10*time.Second)
	eventually.True(t, 5*time.Second, serial+" selected again", func() bool {
		var p device.List
		env.mustJSON("GET", "/api/devices", nil, &p)
		return p.SelectedSerial == serial
	})
	// The first freeze may find the old connection dead and fall back once; the next
	// one must have reopened the sidekick through a new forward.
	first := env.freeze()
	env.mustJSON("POST", "/api/preview/resume", nil, nil)
	if fr := env.freeze(); fr.TreeSource != "sidekick" {
		t.Errorf("freezes after the adb server restarted read the tree from %q then %q, want sidekick again "+
			"(app/sidekick.go keeps the client whose forward died with the server)", first.TreeSource, fr.TreeSource)
	}
}

// With an empty project folder, a freeze of the demo app reads the source index its
// build carries (through the sidekick) and merges it into the running one: an item
// on the list's title gets TrailListScreen.kt from the app's index in the prompt.
func TestFreezeMergesTheAppsSourceIndex(t *testing.T) {
	env := newTestEnv(t) // the project folder is an empty directory
	if _, r := env.app.sources.Get(); r != "" && r != source.Building && r != source.NoSources {
		t.Fatalf("readiness before the freeze: %q", r)
	}
	sessionID := env.createSession("app index")
	fr := env.freeze()
	eventually.True(t, 10*time.Second, "the app's index merged", func() bool {
		idx, r := env.app.sources.Get()
		return idx != nil && r == source.Ready && idx.AppIndex() != nil
	})
	title := fr.node(t, "screen_title")
	env.mustJSON("POST", "/api/items/batch", map[string]any{"sessionId": sessionID, "frozenId": fr.FrozenID,
		"workspaceId": "ws-test", "frozenFingerprint": fr.Screen.Fingerprint,
		"items": []map[string]any{{"draftItemId": "d1", "severity": "med", "comment": "Make the title bolder",
			"target": map[string]any{"type": "node", "nodeUid": title.UID, "bounds": title.Bounds,
				"snapshot": map[string]any{"class": title.Class, "text": title.Text, "testTag": title.TestTag}}}}}, nil)
	out := env.saveToMCP(sessionID)
	if !regexp.MustCompile(`ui/trails/TrailListScreen\.kt:\d+  conf=\w+  index=app `).MatchString(out.Prompt) {
		t.Fatalf("the prompt names no TrailListScreen.kt candidate:\n%s", out.Prompt)
	}
}

// An agent's capture starts what a console freeze does: the app's source index is
// read and merged, so an agent working without the console gets candidates from it.
func TestAgentCaptureMergesTheAppsSourceIndex(t *testing.T) {
	env := newTestEnv(t) // the project folder is an empty directory
	if _, err := env.app.agentPhone().Capture(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	eventually.True(t, 10*time.Second, "the app's index merged after an agent's capture", func() bool {
		idx, r := env.app.sources.Get()
		return idx != nil && r == source.Ready && idx.AppIndex() != nil
	})
}

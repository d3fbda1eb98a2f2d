package app

import (
	"context"
	"fixthis/app/device"
	"testing"
	"time"
)

// The demo app carries the sidekick, so a freeze reads true Compose semantics through
// it. The device chip's × removes FixThis's forwards; selecting the device again must
// not leave freezes dialing the removed forward (and silently falling back to the much
// slower uiautomator dump).
func TestFreezeUsesSidekickAgainAfterDeviceCleared(t *testing.T) {
	env := newTestEnv(t)
	serial := env.sim.Serial()
	if fr := env.freeze(); fr.TreeSource != "sidekick" {
		t.Fatalf("first freeze read the tree from %q, want sidekick", fr.TreeSource)
	}
	env.mustJSON("POST", "/api/preview/resume", nil, nil)
	env.mustJSON("POST", "/api/device/disconnect", nil, nil)
	env.mustJSON("POST", "/api/device/select", map[string]string{"serial": serial}, nil)
	if fr := env.freeze(); fr.TreeSource != "sidekick" {
		t.Errorf("freeze after × and re-select read the tree from %q, want sidekick (the cached sidekick still dials the forward × removed)", fr.TreeSource)
	}
}

// `adb kill-server` (a common fix-it step) drops every forward and every connection
// through the server. Once the phone is back, a freeze must reach the sidekick again
// instead of redialling the dead forward and settling for uiautomator for good.
func TestFreezeUsesSidekickAgainAfterADBServerRestart(t *testing.T) {
	env := newTestEnv(t)
	serial := env.sim.Serial()
	if fr := env.freeze(); fr.TreeSource != "sidekick" {
		t.Fatalf("first freeze read the tree from %q, want sidekick", fr.TreeSource)
	}
	env.mustJSON("POST", "/api/preview/resume", nil, nil)
	env.adbServer.Restart(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := env.sim.Connect(ctx, env.adbServer.Port); err != nil {
		t.Fatalf("reconnect %s after the restart: %v", serial, err)
	}
	env.waitDeviceOnline(serial, 10*time.Second)
	waitFor(t, 5*time.Second, serial+" selected again", func() bool {
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

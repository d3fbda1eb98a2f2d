package app

import "testing"

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

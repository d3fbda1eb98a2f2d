package app

import (
	"net/http"
	"strings"
	"testing"
)

// The demo app carries the sidekick, so its window list shows upstream's status pill
// (a not-focusable, not-touchable TYPE_APPLICATION_PANEL titled "FixThis MCP
// status") over the activity. A freeze still reads the tree through the sidekick,
// the pill is no window of the screen, and the prompt of an item on the title says
// nothing of a dialog.
func TestSidekickPillIsNoDialog(t *testing.T) {
	env := newTestEnv(t)
	serial := env.sim.Serial()
	if dump := env.adbServer.MustADB(t, "-s", serial, "shell", "dumpsys", "window", "windows"); !strings.Contains(dump, "Window{3c7d1e9 u0 FixThis MCP status}") {
		t.Fatalf("the simulated app shows no status pill:\n%s", dump)
	}
	sessionID := env.createSession("Pill")
	r := env.do("POST", "/api/preview/freeze", map[string]string{}, nil)
	if r.Status != http.StatusOK || strings.Contains(string(r.Body), "FixThis MCP status") {
		t.Fatalf("freeze: %d, the pill in the answer: %v", r.Status, strings.Contains(string(r.Body), "FixThis MCP status"))
	}
	var fr freezeResult
	r.decode(t, &fr)
	if fr.TreeSource != "sidekick" {
		t.Fatalf("freeze read the tree from %q, want sidekick", fr.TreeSource)
	}
	title := fr.node(t, "screen_title")
	batch := map[string]any{
		"sessionId": sessionID, "frozenId": fr.FrozenID, "workspaceId": "ws-test", "frozenFingerprint": fr.Screen.Fingerprint,
		"items": []map[string]any{{"draftItemId": "d1", "severity": "med", "comment": "Make the title friendlier",
			"target": map[string]any{"type": "node", "nodeUid": title.UID, "bounds": title.Bounds}}},
	}
	r = env.do("POST", "/api/items/batch", batch, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("save: %d %s", r.Status, r.Body)
	}
	var saved batchResponse
	r.decode(t, &saved)
	var preview struct {
		Markdown string `json:"markdown"`
	}
	env.mustJSON("POST", "/api/sessions/"+sessionID+"/handoff-preview", map[string]any{"itemIds": itemIDs(saved.Items)}, &preview)
	if strings.Contains(preview.Markdown, "dialog") || strings.Contains(preview.Markdown, "FixThis MCP status") || !strings.Contains(preview.Markdown, "Make the title friendlier") {
		t.Errorf("prompt:\n%s", preview.Markdown)
	}
}

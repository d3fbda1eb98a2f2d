package app

import (
	"net/http"
	"strings"
	"testing"

	"fixthis/app/audit"
	"fixthis/app/feedback"
)

// The console audits a frozen screen of the demo app, adds a finding as an item
// that keeps its check, and dismisses another one, which stays dismissed on the
// next freeze of the same screen.
func TestAuditFrozenScreen(t *testing.T) {
	e := newTestEnv(t)
	sid := e.createSession("audit")
	fr := e.freeze()
	var res feedback.AuditResult
	e.mustJSON("POST", "/api/preview/"+fr.FrozenID+"/audit", nil, &res)
	if res.DensityDPI == 0 || !res.ContrastChecked || res.Dismissed != 0 {
		t.Fatalf("audit: density %d, contrast %v, dismissed %d", res.DensityDPI, res.ContrastChecked, res.Dismissed)
	}
	var small *audit.Finding
	for i, f := range res.Findings {
		if f.Check == audit.CheckTouchTarget && f.Measured == "36×36 dp" {
			small = &res.Findings[i]
		}
	}
	if small == nil {
		t.Fatalf("the 36 dp search button is not among %d findings: %+v", len(res.Findings), res.Findings)
	}

	b := small.Bounds
	batch := map[string]any{"sessionId": sid, "frozenId": fr.FrozenID, "workspaceId": "ws-audit",
		"frozenFingerprint": fr.Screen.Fingerprint,
		"items": []map[string]any{{"draftItemId": "a1", "severity": "high", "check": small.Check,
			"comment": small.Message + " " + small.Suggestion,
			"target":  map[string]any{"type": "node", "nodeUid": small.NodeUID, "bounds": map[string]int{"left": b.Left, "top": b.Top, "right": b.Right, "bottom": b.Bottom}}}}}
	var saved batchResponse
	e.mustJSON("POST", "/api/items/batch", batch, &saved)
	if len(saved.Items) != 1 || saved.Items[0].Check != audit.CheckTouchTarget {
		t.Fatalf("saved %+v, want one item with check touch_target", saved.Items)
	}

	// A check the audit does not have is refused, and quoted short.
	batch["items"].([]map[string]any)[0]["draftItemId"] = "a2"
	batch["items"].([]map[string]any)[0]["check"] = "no_such_check"
	if r := e.do("POST", "/api/items/batch", batch, map[string]string{"If-Match": "*"}); r.Status != http.StatusUnprocessableEntity || !strings.Contains(string(r.Body), "not an audit check") {
		t.Fatalf("unknown check: %d %s", r.Status, r.Body)
	}

	e.mustJSON("POST", "/api/preview/"+fr.FrozenID+"/audit/dismiss", map[string]string{"key": small.Key}, nil)
	e.mustJSON("POST", "/api/preview/resume", nil, nil)
	again := e.freeze()
	var res2 feedback.AuditResult
	e.mustJSON("POST", "/api/preview/"+again.FrozenID+"/audit", nil, &res2)
	if res2.Dismissed != 1 || len(res2.Findings) != len(res.Findings)-1 {
		t.Fatalf("after dismissing: %d findings, %d dismissed; before %d", len(res2.Findings), res2.Dismissed, len(res.Findings))
	}
	for _, f := range res2.Findings {
		if f.Key == small.Key {
			t.Fatalf("the dismissed finding came back: %+v", f)
		}
	}

	if r := e.do("POST", "/api/preview/gone-frame/audit", nil, nil); r.Status != http.StatusNotFound {
		t.Fatalf("audit of a gone frame: %d %s", r.Status, r.Body)
	}
	if r := e.do("POST", "/api/preview/"+again.FrozenID+"/audit/dismiss", map[string]string{"key": ""}, nil); r.Status != http.StatusUnprocessableEntity {
		t.Fatalf("dismiss without a key: %d %s", r.Status, r.Body)
	}
}

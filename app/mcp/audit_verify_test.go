package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"fixthis/app/audit"
	"fixthis/app/store"
)

// An item added from the demo's touch_target finding is checked with
// fixthis_verify_fix and resolved with an after capture, once on the unchanged demo
// (the search button still 36 dp: the check fails with the measured value) and once
// on the demo with the fix (scenario fix "search_button", 48 dp: it passes). Both
// tools give the same answer.
func TestResolveRechecksTheItemsAuditCheck(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, t.TempDir())
	unchanged, fixed := newDemoDevice(t, s), newDemoDevice(t, s, "search_button")

	var before auditOut
	if res := call(t, newClient(t, Deps{Store: s, Device: unchanged}), "fixthis_audit_screen", nil, &before); res.IsError {
		t.Fatal(text(res))
	}
	var small *audit.Finding
	for i, f := range before.Findings {
		if f.Check == audit.CheckTouchTarget && f.Measured == "36×36 dp" {
			small = &before.Findings[i]
		}
	}
	if small == nil {
		t.Fatalf("no 36 dp finding among %+v", before.Findings)
	}

	for _, c := range []struct {
		name       string
		dev        demoDevice
		passed     bool
		summary    string
		wantValues bool
	}{
		{"unchanged", unchanged, false, "touch_target still fails: 36×36 dp, needs 48×48 dp", true},
		{"fixed", fixed, true, "touch_target passes", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			sess, err := s.CreateSession(ctx, "audit "+c.name)
			if err != nil {
				t.Fatal(err)
			}
			b := small.Bounds
			saved, err := s.SaveBatch(ctx, store.SaveBatchInput{SessionID: sess.SessionID, FrozenID: "f-" + c.name, WorkspaceID: "ws",
				Screen: store.ScreenInput{Fingerprint: "fp", Package: "com.fixthis.demo", Activity: ".MainActivity", Width: 1080, Height: 2400,
					ImagePNG: testPNG(t, 1080, 2400), NodesJSON: []byte(`[]`)},
				Items: []store.BatchItem{{DraftItemID: "d1", Severity: "high", Check: audit.CheckTouchTarget, Comment: small.Message,
					Target: store.Target{Type: store.TargetArea, Bounds: &store.Bounds{Left: b.Left, Top: b.Top, Right: b.Right, Bottom: b.Bottom}}}}})
			if err != nil {
				t.Fatal(err)
			}
			iid := saved.Items[0].ItemID
			if _, err := s.ReleaseToAgent(ctx, sess.SessionID, []string{iid}); err != nil {
				t.Fatal(err)
			}
			agent := newClient(t, Deps{Store: s, Device: c.dev})
			ids := map[string]any{"sessionId": sess.SessionID, "itemId": iid}
			if res := call(t, agent, "fixthis_claim_feedback", ids, nil); res.IsError {
				t.Fatalf("claim: %s", text(res))
			}
			after, err := c.dev.Capture(ctx, "")
			if err != nil {
				t.Fatal(err)
			}
			// Before resolving, fixthis_verify_fix finds the newest capture itself.
			var verified verifyFixOut
			if res := call(t, agent, "fixthis_verify_fix", ids, &verified); res.IsError {
				t.Fatalf("verify: %s", text(res))
			}
			if verified.Passed != c.passed || verified.CaptureID != after.CaptureID || verified.Check != audit.CheckTouchTarget ||
				!strings.HasPrefix(verified.BeforeImageURL, "/api/screens/") || verified.AfterImageURL != "/api/captures/"+after.CaptureID+"/image" ||
				!strings.Contains(verified.Summary, c.summary) {
				t.Fatalf("verify: %+v", verified)
			}
			if c.wantValues && (verified.Measured != "36×36 dp" || verified.Required != "48×48 dp") {
				t.Fatalf("verify values: %+v", verified)
			}
			res := call(t, agent, "fixthis_resolve_feedback", map[string]any{"sessionId": sess.SessionID, "itemId": iid,
				"status": "resolved", "summary": "TopBar.kt:40 sized the icon button 48 dp",
				"verification": map[string]any{"captureId": after.CaptureID}}, nil)
			if res.IsError {
				t.Fatalf("resolve: %s", text(res))
			}
			detail, err := s.ReadItem(ctx, sess.SessionID, iid)
			if err != nil {
				t.Fatal(err)
			}
			v := detail.Item.Verification
			if v == nil || v.Check == nil {
				t.Fatalf("no check in the verification: %+v", v)
			}
			got, _ := json.Marshal(v.Check)
			if v.Check.Passed != c.passed || v.Check.Skipped != "" || (v.Check.Measured != "") != c.wantValues {
				t.Fatalf("check %s", got)
			}
			if c.wantValues && (v.Check.Measured != "36×36 dp" || v.Check.Required != "48×48 dp") {
				t.Fatalf("check %s", got)
			}
			if !strings.Contains(v.Summary, c.summary) {
				t.Fatalf("summary %q lacks %q", v.Summary, c.summary)
			}
			// After resolving, the item's own after capture is the default.
			var again verifyFixOut
			if res := call(t, agent, "fixthis_verify_fix", ids, &again); res.IsError || again != verified {
				t.Fatalf("verify after resolve: %s %+v, before %+v", text(res), again, verified)
			}
		})
	}
}

// An item without a check keeps the verification it had; a capture with no known
// density leaves the check skipped, never passed.
func TestRecheckSkipsWhatItCannotMeasure(t *testing.T) {
	ts := &toolset{deps: Deps{Store: openStore(t, t.TempDir())}}
	v := &store.Verification{CaptureID: "c-nope", Summary: "region changed"}
	ts.recheck(context.Background(), store.Item{}, v)
	if v.Check != nil || v.Summary != "region changed" {
		t.Fatalf("an item without a check: %+v", v)
	}
	ts.recheck(context.Background(), store.Item{Check: audit.CheckTouchTarget}, v)
	if v.Check == nil || v.Check.Passed || v.Check.Skipped == "" {
		t.Fatalf("an unreadable capture: %+v", v.Check)
	}
	// A dynamic check is never passed on a capture at the phone's own settings.
	for _, check := range []string{audit.CheckTextScaling, audit.CheckLocaleText, audit.CheckDarkTextContrast, audit.CheckDarkImageContrast} {
		ts.recheck(context.Background(), store.Item{Check: check}, v)
		if v.Check == nil || v.Check.Passed || !strings.Contains(v.Check.Skipped, "dynamic true") {
			t.Fatalf("%s: %+v", check, v.Check)
		}
	}
}

// fixthis_verify_fix refuses what it cannot check, in words an agent acts on.
func TestVerifyFixRefusals(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, t.TempDir())
	sess, err := s.CreateSession(ctx, "verify refusals")
	if err != nil {
		t.Fatal(err)
	}
	saved, err := s.SaveBatch(ctx, store.SaveBatchInput{SessionID: sess.SessionID, FrozenID: "f", WorkspaceID: "ws",
		Screen: store.ScreenInput{Fingerprint: "fp", Package: "com.example.none", Activity: ".A", Width: 100, Height: 100,
			ImagePNG: testPNG(t, 100, 100), NodesJSON: []byte(`[]`)},
		Items: []store.BatchItem{
			{DraftItemID: "plain", Severity: "low", Comment: "words", Target: store.Target{Type: store.TargetArea, Bounds: &store.Bounds{Right: 10, Bottom: 10}}},
			{DraftItemID: "checked", Severity: "low", Check: audit.CheckTouchTarget, Comment: "small",
				Target: store.Target{Type: store.TargetArea, Bounds: &store.Bounds{Right: 10, Bottom: 10}}},
		}})
	if err != nil {
		t.Fatal(err)
	}
	c := newClient(t, Deps{Store: s})
	for _, tc := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"no check", map[string]any{"sessionId": sess.SessionID, "itemId": saved.Items[0].ItemID}, "has no check to re-run"},
		{"no after screen", map[string]any{"sessionId": sess.SessionID, "itemId": saved.Items[1].ItemID}, "take one with fixthis_capture_screen"},
		{"unknown capture", map[string]any{"sessionId": sess.SessionID, "itemId": saved.Items[1].ItemID, "captureId": "c-" + strings.Repeat("x", 150)}, "no capture"},
		{"unknown item", map[string]any{"sessionId": sess.SessionID, "itemId": "nope"}, "nope"},
	} {
		res := call(t, c, "fixthis_verify_fix", tc.args, nil)
		if !res.IsError || !strings.Contains(text(res), tc.want) || len(text(res)) > 400 {
			t.Errorf("%s: %.400s", tc.name, text(res))
		}
	}
}

package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"fixthis/app/audit"
	"fixthis/app/store"
	"fixthis/capture"
	"fixthis/sim/scenario"
)

// growSearchButton is the fix of the demo's documented 36 dp search button
// (examples/trailhead/README.md): the clickable button holding the "Search trails"
// icon, 48×48 dp around its centre at 420 dpi.
func growSearchButton(nodes []capture.Node) {
	button := ""
	for _, n := range nodes {
		if n.ContentDescription == "Search trails" {
			button = n.ParentUID
		}
	}
	for i := range nodes {
		if n := &nodes[i]; n.UID == button {
			cx, cy, half := (n.Bounds.Left+n.Bounds.Right)/2, (n.Bounds.Top+n.Bounds.Bottom)/2, 63 // 48 dp × 420/160 = 126 px
			n.Bounds = capture.Bounds{Left: cx - half, Top: cy - half, Right: cx + half, Bottom: cy + half}
		}
	}
}

// An item added from the demo's touch_target finding is resolved twice with an
// after capture: where the search button is still 36 dp the check fails with the
// measured value; where it grew to 48 dp it passes.
func TestResolveRechecksTheItemsAuditCheck(t *testing.T) {
	ctx := context.Background()
	sc, err := scenario.Load("demo")
	if err != nil {
		t.Fatal(err)
	}
	s := openStore(t, t.TempDir())
	unchanged := demoDevice{st: s, se: sc.NewSession(), density: sc.Device.Density}
	fixed := unchanged
	fixed.edit = growSearchButton

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
}

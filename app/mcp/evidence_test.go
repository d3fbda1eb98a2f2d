package mcp

import (
	"context"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"fixthis/app/errcode"
	"fixthis/app/evidence"
	"fixthis/app/store"
)

// storeCollector stores a fixed attempt, as the app's collector does after
// running the preset; off makes it refuse like a session set to Off.
type storeCollector struct {
	s   *store.Store
	off bool
}

func (c storeCollector) CollectEvidence(ctx context.Context, itemID string, trigger store.EvidenceTrigger) (*store.EvidenceRecord, error) {
	if c.off {
		return nil, errcode.New(errcode.RuntimeEvidenceOff, "runtime diagnostics are off for this session")
	}
	d, err := c.s.ReadItem(ctx, "", itemID)
	if err != nil {
		return nil, err
	}
	recs, err := c.s.AddEvidence(ctx, d.Item.SessionID, []string{itemID}, trigger, crashAttempt("rc-agent"))
	if err != nil {
		return nil, err
	}
	return &recs[0], nil
}

func crashAttempt(id string) evidence.Attempt {
	return evidence.Attempt{ID: id, Package: "com.example", Status: evidence.StatusPartial, Warnings: []string{"frames-process-not-running", "memory-process-not-running"},
		Attachments: []evidence.Attachment{
			{Kind: evidence.KindLogcat, Status: evidence.StatusComplete, Summary: "crash: java.lang.IllegalStateException: boom at com.example.Main.onCreate(Main.kt:12); 5 errors, 0 warnings in 9 app lines", Artifact: ".fixthis/runtime-evidence/s/" + id + "/logcat.txt"},
			{Kind: evidence.KindFrames, Status: evidence.StatusUnsupported, Reason: evidence.ReasonProcessNotRunning, Summary: "no frame stats: the app's process is not running"},
			{Kind: evidence.KindMemory, Status: evidence.StatusUnsupported, Reason: evidence.ReasonProcessNotRunning, Summary: "no memory stats: the app's process is not running"},
		}}
}

func TestRuntimeEvidenceTools(t *testing.T) {
	ctx := context.Background()
	s, sess, items := seededStore(t, 2)
	if _, err := s.ReleaseToAgent(ctx, sess.SessionID, nil); err != nil {
		t.Fatal(err)
	}
	first := items[0].ItemID
	if _, err := s.AddEvidence(ctx, sess.SessionID, []string{first}, store.EvidenceTriggerAuto, crashAttempt("rc-auto")); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, Deps{Store: s, Prompt: listPrompter{}, Evidence: storeCollector{s: s}})

	var got evidenceOut
	if res := call(t, c, "fixthis_get_runtime_evidence", map[string]any{"itemId": first}, &got); res.IsError {
		t.Fatalf("get: %s", text(res))
	}
	if got.SessionID != sess.SessionID || len(got.Attempts) != 1 || got.Attempts[0].Trigger != "auto" || got.Attempts[0].Attachments[0].Artifact == "" {
		t.Fatalf("get: %+v", got)
	}
	var fresh attemptOut
	if res := call(t, c, "fixthis_capture_runtime_evidence", map[string]any{"itemId": first}, &fresh); res.IsError {
		t.Fatalf("capture: %s", text(res))
	}
	if fresh.CaptureID != "rc-agent" || fresh.Trigger != "agent" || fresh.Status != "partial" || len(fresh.Warnings) != 2 {
		t.Errorf("capture: %+v", fresh)
	}
	call(t, c, "fixthis_get_runtime_evidence", map[string]any{"itemId": first, "sessionId": sess.SessionID}, &got)
	if len(got.Attempts) != 2 || got.Attempts[0].CaptureID != "rc-agent" {
		t.Errorf("newest first: %+v", got.Attempts)
	}

	// read_feedback carries each item's newest capture.
	var read readOut
	call(t, c, "fixthis_read_feedback", map[string]any{"sessionId": sess.SessionID}, &read)
	if len(read.RuntimeEvidence) != 1 || read.RuntimeEvidence[0].ItemID != first || read.RuntimeEvidence[0].CaptureID != "rc-agent" {
		t.Errorf("read session: %+v", read.RuntimeEvidence)
	}
	call(t, c, "fixthis_read_feedback", map[string]any{"itemId": items[1].ItemID}, &read)
	if len(read.RuntimeEvidence) != 0 {
		t.Errorf("read item without evidence: %+v", read.RuntimeEvidence)
	}

	if res := call(t, c, "fixthis_get_runtime_evidence", map[string]any{"itemId": "nope"}, nil); !res.IsError || !strings.HasPrefix(text(res), "ITEM_NOT_FOUND") {
		t.Errorf("unknown item: %s", text(res))
	}
}

func TestCaptureRuntimeEvidenceRefusals(t *testing.T) {
	s, _, items := seededStore(t, 1)
	args := map[string]any{"itemId": items[0].ItemID}
	noApp := func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, ErrAppNotRunning }
	sidecar := newClient(t, Deps{Store: s, Forward: noApp})
	if res := call(t, sidecar, "fixthis_capture_runtime_evidence", args, nil); !res.IsError || !strings.HasPrefix(text(res), "DEVICE_NOT_AVAILABLE") {
		t.Errorf("sidecar without the app: %s", text(res))
	}
	var forwarded string
	toApp := func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		forwarded = req.Params.Name
		return mcp.NewToolResultError("RUNTIME_EVIDENCE_OFF: off in the app"), nil
	}
	viaApp := newClient(t, Deps{Store: s, Forward: toApp})
	if res := call(t, viaApp, "fixthis_capture_runtime_evidence", args, nil); text(res) != "RUNTIME_EVIDENCE_OFF: off in the app" || forwarded != "fixthis_capture_runtime_evidence" {
		t.Errorf("sidecar with the app: %s (forwarded %q)", text(res), forwarded)
	}
	off := newClient(t, Deps{Store: s, Evidence: storeCollector{s: s, off: true}})
	if res := call(t, off, "fixthis_capture_runtime_evidence", args, nil); !res.IsError || !strings.HasPrefix(text(res), "RUNTIME_EVIDENCE_OFF") {
		t.Errorf("off: %s", text(res))
	}
	app := newClient(t, Deps{Store: s, Evidence: storeCollector{s: s}})
	if res := call(t, app, "fixthis_capture_runtime_evidence", map[string]any{"itemId": "nope"}, nil); !res.IsError || !strings.HasPrefix(text(res), "ITEM_NOT_FOUND") {
		t.Errorf("unknown item: %s", text(res))
	}
}

// attemptPrompter marks where the release prompt's attempt block would go.
type attemptPrompter struct{ listPrompter }

func (attemptPrompter) ReleaseMarkdown(_ context.Context, sessionID string, itemIDs []string, d *store.EvidenceDecision) (string, error) {
	return "prompt of " + strings.Join(itemIDs, ",") + "\nruntimeEvidenceAttempt:\n  status=" + string(d.Status) + "\n  reason=" + string(d.Reason), nil
}

func TestWaitServesTheReleaseWithItsEvidenceDecision(t *testing.T) {
	ctx := context.Background()
	s, sess, _ := seededStore(t, 1)
	d := store.SkippedDecision("manual")
	if _, err := s.ReleaseWithEvidence(ctx, sess.SessionID, nil, &d); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, Deps{Store: s, Prompt: attemptPrompter{}})
	var out waitOut
	call(t, c, "fixthis_wait_for_feedback", map[string]any{"sessionId": sess.SessionID, "timeoutSeconds": 1}, &out)
	if !strings.HasSuffix(out.Prompt, "runtimeEvidenceAttempt:\n  status=skipped\n  reason=manual") {
		t.Errorf("prompt %q", out.Prompt)
	}
}

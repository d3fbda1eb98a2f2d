package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fixthis/app/evidence"
	"fixthis/app/feedbackapi"
	"fixthis/app/store"
	"fixthis/sim"
)

// setPolicy sets a session's runtime diagnostics policy through the API.
func (e *testEnv) setPolicy(sessionID, policy string) {
	e.t.Helper()
	e.mustJSON("PUT", "/api/sessions/"+sessionID, map[string]string{"runtimeEvidencePolicy": policy}, nil)
}

func (e *testEnv) saveToMCP(sessionID string) feedbackapi.AgentHandoff {
	e.t.Helper()
	var out feedbackapi.AgentHandoff
	e.mustJSON("POST", "/api/agent-handoffs", map[string]any{"sessionId": sessionID}, &out)
	return out
}

// saveToMCPInBudget is Save to MCP under Auto, which collects first but must still
// answer within its 3.5 s budget; while says what the phone is doing meanwhile.
func (e *testEnv) saveToMCPInBudget(sessionID, while string) feedbackapi.AgentHandoff {
	e.t.Helper()
	t0 := time.Now()
	out := e.saveToMCP(sessionID)
	if d := time.Since(t0); d > 3500*time.Millisecond {
		e.t.Errorf("Save to MCP took %v%s", d, while)
	}
	return out
}

func (e *testEnv) evidenceOf(sessionID, itemID string) feedbackapi.EvidenceDoc {
	e.t.Helper()
	var doc feedbackapi.EvidenceDoc
	e.mustJSON("GET", "/api/items/"+itemID+"/runtime-evidence?sessionId="+sessionID, nil, &doc)
	return doc
}

// Auto: Save to MCP collects first. The demo app crashed after the freeze with its
// own code on the stack, so the log has the crash and the process is gone.
func TestSaveToMCPUnderAutoCollectsFirst(t *testing.T) {
	e := newTestEnv(t)
	sid := e.createSession("auto")
	_, saved, _ := e.saveDrafts(sid)
	err := e.sim.CrashApp(sim.Crash{
		Exception: "java.lang.IllegalStateException: Trail 42 has no start point",
		Frames: []string{
			"com.fixthis.demo.ui.format.TrailFormatKt.formatDistance(TrailFormat.kt:27)",
			"com.fixthis.demo.ui.trails.TrailCardKt$TrailCard$1.invoke(TrailCard.kt:58)",
			"android.os.Looper.loop(Looper.java:294)",
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	out := e.saveToMCPInBudget(sid, " after a crash")
	ev := out.RuntimeEvidence
	if !ev.Decision.Attempted || ev.Decision.Status != "partial" || ev.Attempt == nil {
		t.Fatalf("decision %+v", ev)
	}
	if c := ev.Attempt.Attachment(evidence.KindLogcat).Logcat.Crash; c == nil || c.Frame != "com.fixthis.demo.ui.format.TrailFormatKt.formatDistance(TrailFormat.kt:27)" {
		t.Errorf("logcat %+v", ev.Attempt.Attachment(evidence.KindLogcat))
	}
	for _, kind := range []evidence.Kind{evidence.KindFrames, evidence.KindMemory} {
		if at := ev.Attempt.Attachment(kind); at.Status != evidence.StatusUnsupported || at.Reason != evidence.ReasonProcessNotRunning {
			t.Errorf("%s %+v", kind, at)
		}
	}
	for _, it := range out.Session.Items {
		if it.Delivery != store.DeliverySent {
			t.Errorf("item %s is %s after Save to MCP", it.ItemID, it.Delivery)
		}
	}
	for _, want := range []string{"  runtimeEvidence:\n    - logcat -> .fixthis/runtime-evidence/" + sid + "/" + ev.Attempt.ID + "/logcat.txt\n      summary: crash: java.lang.IllegalStateException: Trail 42 has no start point at com.fixthis.demo.ui.format.",
		",check-logcat\n", "\nruntimeEvidenceAttempt:\n  attempted=true\n  status=partial\n  warning=frames-process-not-running\n  warning=memory-process-not-running\n"} {
		if !strings.Contains(out.Prompt, want) {
			t.Errorf("prompt lacks %q:\n%s", want, out.Prompt)
		}
	}
	for _, it := range saved.Items {
		if doc := e.evidenceOf(sid, it.ItemID); len(doc.Attempts) != 1 || doc.Attempts[0].Trigger != store.EvidenceTriggerAuto || doc.Attempts[0].ID != ev.Attempt.ID {
			t.Errorf("item %s evidence %+v", it.ItemID, doc)
		}
	}
	dir := filepath.Join(e.projectDir, ".fixthis", "runtime-evidence", sid, ev.Attempt.ID)
	for _, name := range []string{"logcat.txt", "gfxinfo.txt", "meminfo.txt"} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v %v", name, fi, err)
		}
	}
	// Copy Prompt shows what is attached but never collects or appends the attempt.
	var prev feedbackapi.HandoffPreview
	e.mustJSON("POST", "/api/sessions/"+sid+"/handoff-preview", map[string]any{}, &prev)
	if strings.Contains(prev.Markdown, "runtimeEvidenceAttempt:") || !strings.Contains(prev.Markdown, "  runtimeEvidence:\n") {
		t.Errorf("Copy Prompt:\n%s", prev.Markdown)
	}
	if doc := e.evidenceOf(sid, saved.Items[0].ItemID); len(doc.Attempts) != 1 {
		t.Errorf("Copy Prompt collected: %d attempts", len(doc.Attempts))
	}
}

// Manual skips automatic collection and keeps Capture diagnostics; Off skips it and
// refuses the manual capture.
func TestManualAndOffPolicies(t *testing.T) {
	e := newTestEnv(t)
	for _, policy := range []string{string(store.PolicyManual), string(store.PolicyOff)} {
		sid := e.createSession(policy)
		e.setPolicy(sid, policy)
		_, saved, _ := e.saveDrafts(sid)
		out := e.saveToMCP(sid)
		if d := out.RuntimeEvidence.Decision; d.Attempted || d.Status != "skipped" || string(d.Reason) != policy || out.RuntimeEvidence.Attempt != nil {
			t.Errorf("%s: decision %+v", policy, d)
		}
		if !strings.HasSuffix(out.Prompt, "\nruntimeEvidenceAttempt:\n  attempted=false\n  status=skipped\n  reason="+policy+"\n") {
			t.Errorf("%s: prompt ends %q", policy, out.Prompt[max(0, len(out.Prompt)-120):])
		}
		id := saved.Items[0].ItemID
		if doc := e.evidenceOf(sid, id); len(doc.Attempts) != 0 {
			t.Errorf("%s: Save to MCP collected %+v", policy, doc.Attempts)
		}
		r := e.do("POST", "/api/items/"+id+"/runtime-evidence/collect", nil, nil)
		if policy == string(store.PolicyOff) {
			if r.Status != 409 || !strings.Contains(string(r.Body), `"runtime_evidence_off"`) {
				t.Errorf("off: capture answered %d %s", r.Status, r.Body)
			}
			continue
		}
		var rec store.EvidenceRecord
		if r.Status != 200 {
			t.Fatalf("manual capture: %d %s", r.Status, r.Body)
		}
		r.decode(t, &rec)
		if rec.Trigger != store.EvidenceTriggerManual || rec.Status != evidence.StatusComplete || len(rec.Attachments) != len(evidence.Kinds) {
			t.Errorf("manual capture %+v", rec)
		}
		if rec.Dir != ".fixthis/runtime-evidence/"+sid+"/"+rec.ID {
			t.Errorf("dir %q", rec.Dir)
		}
	}
	if r := e.do("POST", "/api/items/nope/runtime-evidence/collect", nil, nil); r.Status != 404 {
		t.Errorf("unknown item: %d %s", r.Status, r.Body)
	}
	// Reading an item's captures names its session, as the console always does.
	for _, q := range []string{"", "?sessionId=", "?sessionId=%20"} {
		if r := e.do("GET", "/api/items/nope/runtime-evidence"+q, nil, nil); r.Status != 400 || !strings.Contains(string(r.Body), "sessionId is required") {
			t.Errorf("runtime evidence without a session (%q): %d %s", q, r.Status, r.Body)
		}
	}
}

// A collector that times out makes the attempt partial without holding Save to MCP
// past the budget, and the device's real output is stored only after redaction.
func TestSaveToMCPWithASlowCollectorAndRedaction(t *testing.T) {
	dir := t.TempDir()
	logcat, err := os.ReadFile("evidence/testdata/logcat_crash.txt")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "logcat.txt"), logcat, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "dumpsys_meminfo.delay"), []byte("10s"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := quietSim
	opts.Outputs = dir
	e := newTestEnvWith(t, opts)
	sid := e.createSession("slow")
	e.saveDrafts(sid)
	out := e.saveToMCPInBudget(sid, " with a collector stuck for 10 s")
	ev := out.RuntimeEvidence
	if ev.Attempt == nil || ev.Decision.Status != "partial" || ev.Decision.Warnings[0] != "memory-timeout" {
		t.Fatalf("decision %+v", ev.Decision)
	}
	if ev.Attempt.Attachment(evidence.KindMemory).Reason != evidence.ReasonTimeout || ev.Attempt.Attachment(evidence.KindLogcat).Logcat.Crash == nil {
		t.Errorf("attachments %+v", ev.Attempt.Attachments)
	}
	raw, err := os.ReadFile(filepath.Join(e.projectDir, ".fixthis", "runtime-evidence", sid, ev.Attempt.ID, "logcat.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"ana.lopez@example.com", "session=9f8e7d6c", "near=47.61"} {
		if strings.Contains(string(raw), secret) || strings.Contains(out.Prompt, secret) {
			t.Errorf("%q was stored or shown", secret)
		}
	}
	if !strings.Contains(string(raw), "signed in as [REDACTED]") {
		t.Errorf("stored logcat:\n%s", raw)
	}
}

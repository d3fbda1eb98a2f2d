package handoff

import (
	"context"
	"strings"
	"testing"

	"fixthis/app/evidence"
	"fixthis/app/store"
)

func TestPromptCarriesStoredRuntimeEvidence(t *testing.T) {
	ctx := context.Background()
	st, sid := savedSession(t)
	first := firstItemID(t, st, sid)
	a := evidence.Attempt{ID: "rc-1", Status: evidence.StatusPartial, Warnings: []string{"memory-process-not-running"}, Attachments: []evidence.Attachment{
		{Kind: evidence.KindLogcat, Status: evidence.StatusComplete, Artifact: ".fixthis/runtime-evidence/" + sid + "/rc-1/logcat.txt",
			Summary: "crash: java.lang.IllegalStateException: Trail 42 has no start point at com.example.demo.Trails.format(Trails.kt:27); 19 errors, 1 warning in 27 app lines"},
		{Kind: evidence.KindFrames, Status: evidence.StatusComplete, Artifact: ".fixthis/runtime-evidence/" + sid + "/rc-1/gfxinfo.txt", Summary: "43 frames, 7 janky (16.28%); p50 5ms p90 69ms p95 150ms p99 200ms"},
		{Kind: evidence.KindMemory, Status: evidence.StatusUnsupported, Reason: evidence.ReasonProcessNotRunning, Summary: "no memory stats: the app's process is not running"},
	}}
	if _, err := st.AddEvidence(ctx, sid, []string{first}, store.EvidenceTriggerManual, a); err != nil {
		t.Fatal(err)
	}
	b := &Builder{Store: st}
	md, err := b.Markdown(ctx, sid, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "  runtimeEvidence:\n" +
		"    - logcat -> .fixthis/runtime-evidence/" + sid + "/rc-1/logcat.txt\n" +
		"      summary: crash: java.lang.IllegalStateException: Trail 42 has no start point at com.example.demo.Trails.format(Trails.kt:27); 19 errors, 1 warning in 27 app lines\n" +
		"    - frames -> .fixthis/runtime-evidence/" + sid + "/rc-1/gfxinfo.txt\n" +
		"      summary: 43 frames, 7 janky (16.28%); p50 5ms p90 69ms p95 150ms p99 200ms\n" +
		"\n[2] "
	if !strings.Contains(md, want) {
		t.Errorf("prompt lacks the evidence block:\n%s", md)
	}
	if strings.Count(md, "runtimeEvidence:") != 1 || !strings.Contains(md, ",check-logcat,check-frame-summary\n") {
		t.Errorf("evidence on the wrong items or tokens missing:\n%s", md)
	}
	if strings.Contains(md, "runtimeEvidenceAttempt:") {
		t.Errorf("Copy Prompt must not carry the attempt block")
	}
	d := store.DecisionOf(a)
	rel, err := b.ReleaseMarkdown(ctx, sid, []string{first}, &d)
	if err != nil {
		t.Fatal(err)
	}
	tail := "---\nagent_protocol:"
	block := "\nruntimeEvidenceAttempt:\n  attempted=true\n  status=partial\n  warning=memory-process-not-running\n"
	if !strings.HasSuffix(rel, block) || strings.Index(rel, tail) > strings.Index(rel, block) {
		t.Errorf("release prompt ends:\n%s", rel[max(0, len(rel)-400):])
	}
	off := store.SkippedDecision("off")
	rel, _ = b.ReleaseMarkdown(ctx, sid, []string{first}, &off)
	if !strings.HasSuffix(rel, "\nruntimeEvidenceAttempt:\n  attempted=false\n  status=skipped\n  reason=off\n") {
		t.Errorf("Off release prompt ends:\n%s", rel[max(0, len(rel)-200):])
	}
}

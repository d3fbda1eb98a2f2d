package handoff

import (
	"strings"
	"testing"
)

// evidenceSession is the minimal session with what a capture attaches after
// the app stopped responding: the log with the ANR and the frame figures
// (the memory collector timed out, so it attached nothing).
func evidenceSession() Session {
	s := minimalSession()
	dir := ".fixthis/runtime-evidence/" + s.ID + "/rc-5b1e0c2a9d3f4e67/"
	s.Items[0].RuntimeEvidence = []RuntimeEvidence{
		{Type: "logcat", ArtifactPath: dir + "logcat.txt", Summary: "ANR: Input dispatching timed out (7d1f0e3 com.fixthis.demo/com.fixthis.demo.MainActivity (server) is not responding. Waited 5001ms for MotionEvent); 13 errors, 1 warning in 14 app lines"},
		{Type: "frames", ArtifactPath: dir + "gfxinfo.txt", Summary: "3878 frames, 169 janky (4.36%); p50 17ms p90 18ms p95 19ms p99 30ms"},
	}
	return s
}

func TestEvidenceGolden(t *testing.T) {
	for name, opts := range map[string]Options{
		// Save to MCP under Auto: collected first, one collector timed out.
		"evidence_auto": {Attempt: &EvidenceAttempt{Attempted: true, Status: "partial", Warnings: []string{"memory-timeout"}}},
		// Under Off nothing is collected; what an earlier Capture diagnostics
		// attached is still shown.
		"evidence_off": {Attempt: &EvidenceAttempt{Status: "skipped", Reason: "off"}},
		// No device: the attempt failed before any collector ran.
		"evidence_failed": {Attempt: &EvidenceAttempt{Attempted: true, Status: "unsupported", Failure: "no-device", Warnings: []string{"logcat-no-device", "frames-no-device", "memory-no-device"}}},
		// Copy Prompt: the evidence lines, no attempt block.
		"evidence_copy": {},
	} {
		t.Run(name, func(t *testing.T) {
			got := Render(evidenceSession(), opts)
			compareGolden(t, name, got)
			if _, err := checkPrompt(got); err != nil {
				t.Errorf("breaks the grammar: %v", err)
			}
			if !strings.Contains(got, "check-logcat,check-frame-summary\n") {
				t.Errorf("reserved verifyBeforeEdit tokens missing")
			}
			if (opts.Attempt == nil) == strings.Contains(got, "runtimeEvidenceAttempt:") {
				t.Errorf("attempt block present = %v, want %v", !(opts.Attempt == nil), opts.Attempt != nil)
			}
		})
	}
}

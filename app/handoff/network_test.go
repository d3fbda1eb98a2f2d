package handoff

import (
	"strings"
	"testing"

	"fixthis/app/evidence"
	"fixthis/app/evidence/network"
	"fixthis/app/store"
)

// networkSession is the evidence session whose newest capture also read the
// app's HTTP calls: four failed (one more than the line names), one slow.
func networkSession() Session {
	s := evidenceSession()
	s.Items[0].Network = &NetworkCalls{Total: 9,
		Failed: []string{"POST api.trailhead.test/v1/favourites 500", "GET api.trailhead.test/v1/weather SocketTimeoutException",
			"GET api.trailhead.test/v1/[id];rev=2 no response", "DELETE api.trailhead.test/v1/trails/42 403"},
		Slow: []string{"GET cdn.trailhead.test/covers/42.jpg 200 1240 ms"}}
	return s
}

func TestNetworkGolden(t *testing.T) {
	got := Render(networkSession(), Options{Attempt: &EvidenceAttempt{Attempted: true, Status: "complete"}})
	compareGolden(t, "evidence_network", got)
	if _, err := checkPrompt(got); err != nil {
		t.Errorf("breaks the grammar: %v", err)
	}
	if !strings.Contains(got, "check-network,check-logcat") {
		t.Errorf("verifyBeforeEdit lacks check-network")
	}
	// No failed or slow call: the count alone, and nothing to check.
	s := evidenceSession()
	s.Items[0].Network = &NetworkCalls{Total: 3}
	got = Render(s, Options{})
	if !strings.Contains(got, "\n  network: calls=3\n") || strings.Contains(got, "check-network") {
		t.Errorf("quiet network line:\n%s", got)
	}
	if _, err := checkPrompt(got); err != nil {
		t.Errorf("breaks the grammar: %v", err)
	}
}

// The network attachment becomes the network line, not a fourth
// runtimeEvidence entry; a capture that read no calls adds no line.
func TestNetworkCallsFromCapture(t *testing.T) {
	slow, quick := int64(1516), int64(80)
	rec := store.EvidenceRecord{Attempt: evidence.Attempt{Attachments: []evidence.Attachment{
		{Kind: evidence.KindLogcat, Status: evidence.StatusComplete, Summary: "no crash or ANR; 0 errors, 0 warnings in 3 app lines"},
		{Kind: evidence.KindNetwork, Status: evidence.StatusComplete, Summary: "3 HTTP calls, 1 failed, 1 slow", Network: &evidence.NetworkSummary{Total: 3, Failed: 1, Slow: 1,
			Requests: []network.Request{
				{Method: "POST", URL: "https://api.demo.test/v1/favourites", Status: 500, DurationMs: &quick},
				{Method: "GET", URL: "https://cdn.demo.test/c.jpg?[REDACTED]", Status: 200, DurationMs: &slow},
				{Method: "GET", URL: "https://api.demo.test/v1/ok", Status: 200, DurationMs: &quick},
			}}},
	}}}
	if ev := runtimeEvidence(rec); len(ev) != 1 || ev[0].Type != "logcat" {
		t.Errorf("runtimeEvidence %+v", ev)
	}
	n := networkCalls(rec)
	if n == nil || n.Total != 3 || strings.Join(n.Failed, "|") != "POST api.demo.test/v1/favourites 500" || strings.Join(n.Slow, "|") != "GET cdn.demo.test/c.jpg 200 1516 ms" {
		t.Errorf("networkCalls %+v", n)
	}
	rec.Attachments[1].Network = &evidence.NetworkSummary{Requests: []network.Request{}}
	if n := networkCalls(rec); n != nil {
		t.Errorf("no calls read, still a line: %+v", n)
	}
}

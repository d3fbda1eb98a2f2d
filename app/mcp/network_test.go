package mcp

import (
	"context"
	"strings"
	"testing"

	"fixthis/app/evidence"
	"fixthis/app/evidence/network"
	"fixthis/app/store"
)

func networkAttempt(id string) evidence.Attempt {
	slow, quick := int64(1516), int64(229)
	n := &evidence.NetworkSummary{Total: 3, Failed: 2, Slow: 1, Notes: []string{"1 call with only the answer: the request had rotated out of the log"}, Requests: []network.Request{
		{Method: "POST", URL: "https://api.demo.test/v1/favourites", Status: 500, DurationMs: &quick, Source: network.SourceOkHttp},
		{Method: "GET", URL: "https://api.demo.test/v1/profile", Failed: true, Error: "java.net.SocketTimeoutException: timeout", Source: network.SourceOkHttp},
		{Method: "GET", URL: "https://cdn.demo.test/covers/812.jpg?[REDACTED]", Status: 200, DurationMs: &slow, Source: network.SourceKtor,
			// Kept before the card-number rule existed: answered under today's rules.
			ResponseBody: `{"card":"4111 1111 1111 1111"}`},
	}}
	a := crashAttempt(id)
	a.Attachments = append(a.Attachments, evidence.Attachment{Kind: evidence.KindNetwork, Status: evidence.StatusComplete,
		Summary: n.Line(), Network: n, Artifact: ".fixthis/runtime-evidence/s/" + id + "/network.json"})
	return a
}

func TestReadNetwork(t *testing.T) {
	ctx := context.Background()
	s, sess, items := seededStore(t, 2)
	c := newClient(t, Deps{Store: s, Prompt: listPrompter{}})
	first, second := items[0].ItemID, items[1].ItemID

	var got networkOut
	if res := call(t, c, "fixthis_read_network", map[string]any{"itemId": first}, &got); res.IsError {
		t.Fatalf("before any capture: %s", text(res))
	}
	if got.CaptureID != "" || len(got.Requests) != 0 || got.Summary == "" || got.SessionID != sess.SessionID {
		t.Errorf("before any capture: %+v", got)
	}

	// The newest capture with a network attachment answers, also when a newer
	// one (from before the collector existed) has none.
	for _, a := range []evidence.Attempt{networkAttempt("rc-net"), crashAttempt("rc-old-kind")} {
		if _, err := s.AddEvidence(ctx, sess.SessionID, []string{first}, store.EvidenceTriggerAuto, a); err != nil {
			t.Fatal(err)
		}
	}
	if res := call(t, c, "fixthis_read_network", map[string]any{"itemId": first, "sessionId": sess.SessionID}, &got); res.IsError {
		t.Fatalf("read: %s", text(res))
	}
	if got.CaptureID != "rc-net" || got.Total != 3 || len(got.Requests) != 3 || got.Artifact == "" || len(got.Notes) != 1 {
		t.Fatalf("read: %+v", got)
	}
	r0, r1, r2 := got.Requests[0], got.Requests[1], got.Requests[2]
	if r0.Method != "POST" || r0.Status != 500 || r0.DurationMs == nil || *r0.DurationMs != 229 || r0.Failed || r0.Source != "okhttp" {
		t.Errorf("a 500: %+v", r0)
	}
	if !r1.Failed || r1.Status != 0 || r1.Error != "java.net.SocketTimeoutException: timeout" || r1.DurationMs != nil {
		t.Errorf("a timeout: %+v", r1)
	}
	if !r2.Slow || r2.Source != "ktor" || strings.Contains(r2.ResponseBody, "4111") || r2.ResponseBody == "" {
		t.Errorf("a slow call: %+v", r2)
	}

	if res := call(t, c, "fixthis_read_network", map[string]any{"itemId": second, "sessionId": "ses-nope"}, nil); !res.IsError {
		t.Errorf("another session's item: %s", text(res))
	}
	if res := call(t, c, "fixthis_read_network", map[string]any{"itemId": "it-\x00nope"}, nil); !res.IsError {
		t.Errorf("a malformed id: %s", text(res))
	}
}

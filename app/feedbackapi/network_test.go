package feedbackapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"fixthis/app/evidence"
	"fixthis/app/evidence/network"
	"fixthis/app/store"
)

func ms(v int64) *int64 { return &v }

// record is a stored capture with one network attachment holding calls.
func record(id string, at time.Time, calls ...network.Request) store.EvidenceRecord {
	sum := evidence.NetworkSummary{Total: len(calls), Requests: calls}
	for _, c := range calls {
		if c.Bad() {
			sum.Failed++
		}
		if c.Slow() {
			sum.Slow++
		}
	}
	return store.EvidenceRecord{CreatedAt: at, Attempt: evidence.Attempt{ID: id, Attachments: []evidence.Attachment{
		{Kind: evidence.KindLogcat, Status: evidence.StatusComplete, Summary: "no crash"},
		{Kind: evidence.KindNetwork, Status: evidence.StatusComplete, Summary: "calls", Network: &sum},
	}}}
}

func TestNetworkDocReadsTheNewestCaptureThatReadTheNetwork(t *testing.T) {
	t0 := time.Date(2026, 12, 3, 15, 0, 0, 0, time.UTC)
	older := record("rc-old", t0, network.Request{Method: "GET", URL: "https://a.test/old", Status: 200, Source: network.SourceOkHttp})
	noNetwork := store.EvidenceRecord{CreatedAt: t0.Add(2 * time.Minute), Attempt: evidence.Attempt{ID: "rc-logcat-only",
		Attachments: []evidence.Attachment{{Kind: evidence.KindLogcat, Status: evidence.StatusComplete}}}}
	timedOut := store.EvidenceRecord{CreatedAt: t0.Add(time.Minute), Attempt: evidence.Attempt{ID: "rc-timeout",
		Attachments: []evidence.Attachment{{Kind: evidence.KindNetwork, Status: evidence.StatusFailed, Reason: evidence.ReasonTimeout, Summary: "timed out"}}}}
	newer := record("rc-new", t0.Add(3*time.Minute),
		network.Request{Method: "POST", URL: "https://api.test/v1/favourites", Status: 500, DurationMs: ms(231), Source: network.SourceOkHttp},
		network.Request{URL: "https://cdn.test/covers/42.jpg", Status: 200, DurationMs: ms(1240), Partial: true, Source: network.SourceKtor},
		network.Request{Method: "GET", URL: "https://api.test/v1/" + strings.Repeat("p", 40) + "…", Failed: true, Error: network.NoResponse, Partial: true, Source: "webview"},
	)
	tests := []struct {
		name    string
		recs    []store.EvidenceRecord // newest first, as the store lists them
		capture string
		status  evidence.Status
		reason  evidence.Reason
		calls   int
	}{
		{"no capture", nil, "", "", "", 0},
		{"a capture without the network collector", []store.EvidenceRecord{noNetwork}, "", "", "", 0},
		{"the newest with a network attachment", []store.EvidenceRecord{noNetwork, newer, older}, "rc-new", evidence.StatusComplete, "", 3},
		{"a collector that timed out", []store.EvidenceRecord{timedOut, older}, "rc-timeout", evidence.StatusFailed, evidence.ReasonTimeout, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := networkDoc("it-1", tc.recs)
			if doc.ItemID != "it-1" || doc.CaptureID != tc.capture || doc.Status != tc.status || doc.Reason != tc.reason || len(doc.Requests) != tc.calls {
				t.Fatalf("doc %+v", doc)
			}
			if doc.Requests == nil || doc.Summary == "" {
				t.Errorf("requests must be a list and the summary say something: %+v", doc)
			}
			if (doc.CapturedAt == nil) != (tc.capture == "") {
				t.Errorf("capturedAt %v for capture %q", doc.CapturedAt, tc.capture)
			}
		})
	}

	doc := networkDoc("it-1", []store.EvidenceRecord{newer})
	got := doc.Requests
	if got[0].Slow || got[0].Status != 500 || got[0].Note != "" || got[0].Source != "okhttp" {
		t.Errorf("the 500: %+v", got[0])
	}
	if !got[1].Slow || got[1].Method != "" || got[1].Note != notePartial || got[1].Source != "ktor" {
		t.Errorf("the slow partial call: %+v", got[1])
	}
	if !got[2].Failed || got[2].Error != network.NoResponse || got[2].Note != notePartial+"; "+noteTruncated || got[2].Source != "webview" {
		t.Errorf("the cut, unanswered call: %+v", got[2])
	}
	if doc.Total != 3 || doc.Failed != 2 || doc.Slow != 1 {
		t.Errorf("counts %d/%d/%d", doc.Total, doc.Failed, doc.Slow)
	}
}

// A capture stored before a redaction rule existed (or by a build that missed
// one) still answers redacted: the route runs the redactor over every text.
func TestNetworkDocRedactsWhatItServes(t *testing.T) {
	secrets := []string{"AIzaSyDemoKey0123456789abcdefghijklmnop", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkZW1vIn0.ZGVtby1zaWduYXR1cmU",
		"hunter2", "s3cr3t-sess10n"}
	rec := record("rc-1", time.Now(),
		network.Request{Method: "GET", URL: "https://ana:hunter2@api.test/v1/weather?key=" + secrets[0], Status: 401, Source: network.SourceOkHttp},
		network.Request{Method: "POST", URL: "https://api.test/v1/login", Failed: true,
			Error: "java.io.IOException: refused Authorization: Bearer " + secrets[1], ContentType: "text/plain; session=" + secrets[3], Source: network.SourceOkHttp},
	)
	rec.Attachments[1].Summary = "1 failed: GET https://api.test/v1/weather?key=" + secrets[0]
	rec.Attachments[1].Network.Notes = []string{"cookie: JSESSIONID=" + secrets[3]}
	b, err := json.Marshal(networkDoc("it-1", []store.EvidenceRecord{rec}))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range secrets {
		if strings.Contains(string(b), s) {
			t.Errorf("%q reached the answer: %s", s, b)
		}
	}
	if !strings.Contains(string(b), "api.test/v1/weather") || !strings.Contains(string(b), "IOException") {
		t.Errorf("redaction took the readable rest too: %s", b)
	}
}

func TestGetItemNetworkWantsTheSession(t *testing.T) {
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "/api/items/it-1/network", nil)
	req.SetPathValue("id", "it-1")
	Routes{}.GetItemNetwork(rec, req)
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "sessionId is required") {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
}

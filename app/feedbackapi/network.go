package feedbackapi

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"fixthis/app/evidence"
	"fixthis/app/evidence/network"
	"fixthis/app/httpapi"
	"fixthis/app/store"
)

// The Network section of a saved item: the HTTP calls its newest capture read
// from the app's log, as the console shows them. Only what the network
// collector already parsed and redacted is served; bodies only when the user
// asked a capture to keep them.

// NetworkDoc is the body of GET /api/items/{id}/network.
type NetworkDoc struct {
	ItemID string `json:"itemId"`
	// CaptureID and CapturedAt name the capture the calls come from; both are
	// empty when no capture of this item read the network yet.
	CaptureID  string     `json:"captureId,omitempty"`
	CapturedAt *time.Time `json:"capturedAt,omitempty"`
	// Status and Reason are the network collector's own (a timeout, a process
	// that was not running); Summary is its one line.
	Status  evidence.Status `json:"status,omitempty"`
	Reason  evidence.Reason `json:"reason,omitempty"`
	Summary string          `json:"summary"`
	Total   int             `json:"total"`
	Failed  int             `json:"failed"`
	Slow    int             `json:"slow"`
	// Requests are at most 100 calls, failed and slow first; Dropped counts
	// the calls the capture read but did not keep.
	Requests []NetworkCall `json:"requests"`
	Dropped  int           `json:"dropped,omitempty"`
	Notes    []string      `json:"notes,omitempty"`
}

// NetworkCall is one HTTP call as the console lists it.
type NetworkCall struct {
	Method     string `json:"method"` // "" when only the answer was in the log
	URL        string `json:"url"`    // query redacted
	Status     int    `json:"status,omitempty"`
	DurationMs *int64 `json:"durationMs,omitempty"`
	Failed     bool   `json:"failed,omitempty"` // no response: it threw, or none was logged
	Slow       bool   `json:"slow,omitempty"`   // took more than a second
	Error      string `json:"error,omitempty"`  // the exception, or "no response in the log"
	// ResponseBytes and ContentType describe the answer's body, never its text.
	ResponseBytes *int64 `json:"responseBytes,omitempty"`
	ContentType   string `json:"contentType,omitempty"`
	Source        string `json:"source"`         // okhttp | ktor | webview
	Time          string `json:"time,omitempty"` // logcat time of its first line
	// Note says what the log could not tell about this call.
	Note string `json:"note,omitempty"`
	// RequestBody and ResponseBody are the logged bodies' redacted text, only
	// from a capture the user asked to keep bodies for (at most 4 KB each).
	RequestBody  string `json:"requestBody,omitempty"`
	ResponseBody string `json:"responseBody,omitempty"`
}

// Per-call notes.
const (
	notePartial   = "only the answer was in the log: the request had rotated out"
	noteTruncated = "URL cut at logcat's line limit"
	// noteOtherProcess takes the pid that logged the call.
	noteOtherProcess = "logged under OkHttp's tag by pid %d, not the app's process (a shell's log command or another tool)"
)

// GetItemNetwork serves an item's HTTP calls from its newest capture that read them.
func (h Routes) GetItemNetwork(w http.ResponseWriter, r *http.Request) {
	if id, recs, ok := h.itemCaptures(w, r, "network calls to list"); ok {
		httpapi.WriteJSON(w, http.StatusOK, networkDoc(id, recs))
	}
}

// networkDoc reads the newest of recs (newest first) that has a network
// attachment. Every text goes through the redactor once more: a capture
// stored by an older version, or a rule added since, is still applied.
func networkDoc(itemID string, recs []store.EvidenceRecord) NetworkDoc {
	doc := NetworkDoc{ItemID: itemID, Requests: []NetworkCall{},
		Summary: "no capture of this item read the network yet"}
	for _, rec := range recs {
		at := rec.Attachment(evidence.KindNetwork)
		if at.Kind != evidence.KindNetwork {
			continue // this capture did not run the network collector
		}
		created := rec.CreatedAt
		doc.CaptureID, doc.CapturedAt = rec.ID, &created
		doc.Status, doc.Reason, doc.Summary = at.Status, at.Reason, evidence.RedactLine(at.Summary)
		if n := at.Network; n != nil {
			doc.Total, doc.Failed, doc.Slow, doc.Dropped = n.Total, n.Failed, n.Slow, n.Dropped
			for _, c := range n.Requests {
				doc.Requests = append(doc.Requests, networkCall(c))
			}
			for _, note := range n.Notes {
				doc.Notes = append(doc.Notes, evidence.RedactLine(note))
			}
		}
		return doc
	}
	return doc
}

func networkCall(c network.Request) NetworkCall {
	out := NetworkCall{Method: evidence.RedactLine(c.Method), URL: evidence.RedactLine(c.URL), Status: c.Status,
		DurationMs: c.DurationMs, Failed: c.Failed, Slow: c.Slow(), Error: evidence.RedactLine(c.Error),
		ResponseBytes: c.ResponseBytes, ContentType: evidence.RedactLine(c.ContentType), Source: string(c.Source), Time: c.Time,
		RequestBody: evidence.RedactBody(c.RequestBody), ResponseBody: evidence.RedactBody(c.ResponseBody)}
	var notes []string
	if c.Partial {
		notes = append(notes, notePartial)
	}
	if strings.HasSuffix(c.URL, "…") {
		notes = append(notes, noteTruncated)
	}
	if c.OtherProcess {
		notes = append(notes, fmt.Sprintf(noteOtherProcess, c.Pid))
	}
	out.Note = strings.Join(notes, "; ")
	return out
}

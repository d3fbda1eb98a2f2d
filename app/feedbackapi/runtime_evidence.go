package feedbackapi

import (
	"net/http"
	"strings"

	"fixthis/app/errcode"
	"fixthis/app/httpapi"
	"fixthis/app/store"
)

// Runtime evidence: the baseline preset (logcat, frames, memory, network) run for saved
// items, by Capture diagnostics, by Save to MCP under Auto, and by the agent.

// EvidenceDoc is an item's runtime evidence captures, newest first.
type EvidenceDoc struct {
	ItemID   string                 `json:"itemId"`
	Attempts []store.EvidenceRecord `json:"attempts"`
}

// PostItemEvidenceCollect is Capture diagnostics on a saved item's detail.
func (h Routes) PostItemEvidenceCollect(w http.ResponseWriter, r *http.Request) {
	// The body is optional; a sessionId in it must be the item's session. bodies
	// keeps the HTTP bodies the app logged, for this capture only.
	var req struct {
		SessionID string `json:"sessionId"`
		Bodies    bool   `json:"bodies"`
	}
	if err := httpapi.DecodeOptionalJSON(r, &req); err != nil {
		httpapi.WriteError(w, err)
		return
	}
	rec, err := h.Feedback.CaptureDiagnostics(r.Context(), req.SessionID, r.PathValue("id"), store.EvidenceTriggerManual, req.Bodies)
	httpapi.Answer(w, rec, err)
}

// GetItemEvidence lists an item's captures, newest first.
func (h Routes) GetItemEvidence(w http.ResponseWriter, r *http.Request) {
	if id, recs, ok := h.itemCaptures(w, r, "captures to list"); ok {
		httpapi.WriteJSON(w, http.StatusOK, EvidenceDoc{ItemID: id, Attempts: recs})
	}
}

// itemCaptures reads the captures of the item a GET route names, newest first;
// the route's ?sessionId= is required (what says what it is for). It answers
// the error itself and returns false when there is none to read.
func (h Routes) itemCaptures(w http.ResponseWriter, r *http.Request, what string) (string, []store.EvidenceRecord, bool) {
	id, sid := r.PathValue("id"), strings.TrimSpace(r.URL.Query().Get("sessionId"))
	if sid == "" {
		httpapi.WriteError(w, errcode.New(errcode.InvalidQuery, "sessionId is required: the session of the item whose %s", what))
		return id, nil, false
	}
	recs, err := h.Store.ItemEvidence(r.Context(), sid, id)
	if err != nil {
		httpapi.WriteError(w, err)
		return id, nil, false
	}
	return id, recs, true
}

package feedbackapi

import (
	"net/http"

	"fixthis/app/errcode"
	"fixthis/app/feedback"
	"fixthis/app/httpapi"
	"fixthis/app/source"
	"fixthis/app/store"
)

// HandoffRequest is the body of POST /api/agent-handoffs (Save to MCP).
type HandoffRequest struct {
	SessionID string   `json:"sessionId"`
	ItemIDs   []string `json:"itemIds"`
}

// HandoffPreviewRequest is the body of POST /api/sessions/{id}/handoff-preview; it
// may be empty (then every item the agent still has work on).
type HandoffPreviewRequest struct {
	ItemIDs    []string `json:"itemIds,omitempty"`
	MarkCopied bool     `json:"markCopied,omitempty"`
}

// AgentHandoff is the answer to Save to MCP.
type AgentHandoff struct {
	Session *store.Session `json:"session"`
	Prompt  string         `json:"prompt"` // the compact prompt of the released items
	BatchID string         `json:"batchId"`
	Handoff store.Handoff  `json:"handoff"`
	// RuntimeEvidence says what Save to MCP collected (Auto) or that it skipped.
	RuntimeEvidence feedback.HandoffEvidence `json:"runtimeEvidence"`
}

// HandoffPreview is the answer to Copy Prompt; Session is set with markCopied.
type HandoffPreview struct {
	Markdown string         `json:"markdown"`
	Session  *store.Session `json:"session,omitempty"`
}

// ItemSources is what the inspector shows under a saved annotation. Reason says why
// there are no candidates ("" when the index is ready).
type ItemSources struct {
	ItemID       string               `json:"itemId"`
	Candidates   []source.Candidate   `json:"candidates"`
	EditSurfaces []source.EditSurface `json:"editSurfaces"`
	Reason       source.Readiness     `json:"reason"`
}

// PostAgentHandoffs is Save to MCP (feedback.Service.SaveToMCP): under the Auto
// policy runtime evidence is collected first; then the items become sent and a batch
// is queued for the agent's next wait. The response carries the prompt, with its
// runtimeEvidenceAttempt block, and what was collected.
func (h Routes) PostAgentHandoffs(w http.ResponseWriter, r *http.Request) {
	httpapi.DecodeAnswer(w, r, httpapi.DecodeJSON, func(req HandoffRequest) (AgentHandoff, error) {
		ho, err := h.Feedback.SaveToMCP(r.Context(), req.SessionID, req.ItemIDs)
		if err != nil {
			return AgentHandoff{}, err
		}
		return AgentHandoff{Session: ho.Session, Prompt: ho.Prompt, BatchID: ho.BatchID, Handoff: ho.Handoff, RuntimeEvidence: ho.Evidence}, nil
	})
}

// PostHandoffPreview is Copy Prompt (feedback.Service.CopyPrompt).
func (h Routes) PostHandoffPreview(w http.ResponseWriter, r *http.Request) {
	httpapi.DecodeAnswer(w, r, httpapi.DecodeOptionalJSON, func(req HandoffPreviewRequest) (HandoffPreview, error) {
		md, sess, err := h.Feedback.CopyPrompt(r.Context(), r.PathValue("id"), req.ItemIDs, req.MarkCopied)
		return HandoffPreview{Markdown: md, Session: sess}, err
	})
}

// GetSessionExport is the full export: JSON (default) or Markdown.
func (h Routes) GetSessionExport(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	switch format := r.URL.Query().Get("format"); format {
	case "", "json":
		data, err := h.Prompts.ExportJSON(r.Context(), id)
		writeExport(w, "fixthis-"+id+".json", "application/json; charset=utf-8", data, err)
	case "markdown", "md":
		md, err := h.Prompts.ExportMarkdown(r.Context(), id)
		writeExport(w, "fixthis-"+id+".md", "text/markdown; charset=utf-8", []byte(md), err)
	default:
		httpapi.WriteError(w, httpapi.InvalidInput("format must be json or markdown, not %s", errcode.Quote(format)))
	}
}

// writeExport answers with an export as a download named file, or with err.
func writeExport(w http.ResponseWriter, file, contentType string, data []byte, err error) {
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Disposition", `attachment; filename="`+file+`"`)
	_, _ = w.Write(data)
}

// GetItemSources is what the inspector shows under a saved annotation: the ranked
// source candidates and edit-surface hints the prompt will carry for this item.
func (h Routes) GetItemSources(w http.ResponseWriter, r *http.Request) {
	sessionID, itemID := r.URL.Query().Get("sessionId"), r.PathValue("id")
	it, err := h.Prompts.Item(r.Context(), sessionID, itemID)
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	_, reason := h.Sources.Get()
	cands := it.Candidates
	if cands == nil {
		cands = []source.Candidate{}
	}
	if len(cands) == 0 && reason == "" {
		reason = source.NoMatch
	}
	surfaces := it.EditSurfaces
	if surfaces == nil {
		surfaces = []source.EditSurface{}
	}
	httpapi.WriteJSON(w, http.StatusOK, ItemSources{ItemID: itemID, Candidates: cands, EditSurfaces: surfaces, Reason: reason})
}

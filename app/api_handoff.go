package app

import (
	"context"
	"fixthis/app/errcode"
	"net/http"

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
	RuntimeEvidence HandoffEvidence `json:"runtimeEvidence"`
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

// postAgentHandoffs is Save to MCP: under the Auto policy runtime evidence is collected
// first (bounded by the preset's budget); then the items become sent and a batch is
// queued for the agent's next wait, in one transaction. The response carries the prompt,
// with its runtimeEvidenceAttempt block, and what was collected.
func (a *App) postAgentHandoffs(w http.ResponseWriter, r *http.Request) {
	var req HandoffRequest
	if err := decodeJSON(r, &req); err != nil {
		writeError(w, err)
		return
	}
	res, ev, err := a.handOff(r.Context(), req.SessionID, req.ItemIDs)
	if err != nil {
		writeError(w, err)
		return
	}
	ids := make([]string, 0, len(res.Items))
	for _, it := range res.Items {
		ids = append(ids, it.ItemID)
	}
	md, err := a.prompts.ReleaseMarkdown(r.Context(), req.SessionID, ids, &ev.Decision)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, AgentHandoff{Session: res.Session, Prompt: md, BatchID: res.BatchID, Handoff: res.Handoff, RuntimeEvidence: ev})
}

// handOff is the one release path: runtime evidence under the Auto policy, then the
// release of itemIDs (every releasable item when empty) and the app build it was
// made against. Save to MCP and the voice modes both use it.
func (a *App) handOff(ctx context.Context, sessionID string, itemIDs []string) (*store.ReleaseResult, HandoffEvidence, error) {
	ev := a.handoffEvidence(ctx, sessionID, itemIDs)
	res, err := a.store.ReleaseWithEvidence(ctx, sessionID, itemIDs, &ev.Decision)
	if err != nil {
		return nil, ev, err
	}
	a.recordAppBuild(ctx, sessionID)
	return res, ev, nil
}

// postHandoffPreview is Copy Prompt: the compact prompt for the chosen items; with
// markCopied the items record lastHandedOffAt (it never implies delivery: sent).
func (a *App) postHandoffPreview(w http.ResponseWriter, r *http.Request) {
	var req HandoffPreviewRequest
	if err := decodeOptionalJSON(r, &req); err != nil {
		writeError(w, err)
		return
	}
	sessionID := r.PathValue("id")
	sess, err := a.store.GetSession(r.Context(), sessionID)
	if err != nil {
		writeError(w, err)
		return
	}
	if len(req.ItemIDs) == 0 {
		// No choice made: every item the agent still has work on.
		req.ItemIDs = sess.OpenItemIDs()
		if len(req.ItemIDs) == 0 {
			writeError(w, &store.Error{Code: store.CodeNoDraftFeedback, Msg: "the session has no open feedback to hand off"})
			return
		}
	}
	// An unknown id is a 404 whether or not the copy is recorded: a prompt
	// silently missing an item would hand the agent less than the user chose.
	known := make(map[string]bool, len(sess.Items))
	for _, it := range sess.Items {
		known[it.ItemID] = true
	}
	for _, id := range req.ItemIDs {
		if !known[id] {
			writeError(w, errcode.New(errcode.ItemNotFound, "no item %s in session %s", errcode.Quote(id), errcode.Quote(sessionID)))
			return
		}
	}
	if req.MarkCopied {
		a.recordAppBuild(r.Context(), sessionID) // a copy is a handoff: its prompt names the build
	}
	md, err := a.prompts.Markdown(r.Context(), sessionID, req.ItemIDs)
	if err != nil {
		writeError(w, err)
		return
	}
	resp := HandoffPreview{Markdown: md}
	if req.MarkCopied {
		sess, err := a.store.MarkCopied(r.Context(), sessionID, req.ItemIDs)
		if err != nil {
			writeError(w, err)
			return
		}
		resp.Session = sess
	}
	writeJSON(w, http.StatusOK, resp)
}

// getSessionExport is the full export: JSON (default) or Markdown.
func (a *App) getSessionExport(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	switch format := r.URL.Query().Get("format"); format {
	case "", "json":
		data, err := a.prompts.ExportJSON(r.Context(), id)
		if err != nil {
			writeError(w, err)
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="fixthis-`+id+`.json"`)
		_, _ = w.Write(data)
	case "markdown", "md":
		md, err := a.prompts.ExportMarkdown(r.Context(), id)
		if err != nil {
			writeError(w, err)
			return
		}
		w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="fixthis-`+id+`.md"`)
		_, _ = w.Write([]byte(md))
	default:
		writeError(w, invalidInput("format must be json or markdown, not %s", errcode.Quote(format)))
	}
}

// getItemSources is what the inspector shows under a saved annotation: the ranked
// source candidates and edit-surface hints the prompt will carry for this item.
func (a *App) getItemSources(w http.ResponseWriter, r *http.Request) {
	sessionID, itemID := r.URL.Query().Get("sessionId"), r.PathValue("id")
	it, err := a.prompts.Item(r.Context(), sessionID, itemID)
	if err != nil {
		writeError(w, err)
		return
	}
	_, reason := a.sources.get()
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
	writeJSON(w, http.StatusOK, ItemSources{ItemID: itemID, Candidates: cands, EditSurfaces: surfaces, Reason: reason})
}

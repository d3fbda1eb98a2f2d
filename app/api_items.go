package app

import (
	"fixthis/app/errcode"
	"fixthis/app/store"
	"net/http"
	"strings"
)

// Item routes: saving annotations and the user's side of the agent loop.

// ItemDoc carries one item.
type ItemDoc struct {
	Item *store.Item `json:"item"`
}

// Deleted says how many drafts DELETE /api/items/draft removed.
type Deleted struct {
	Deleted int `json:"deleted"`
}

type batchRequest struct {
	SessionID             string            `json:"sessionId"`
	PreviewID             string            `json:"previewId"`
	WorkspaceID           string            `json:"workspaceId"`
	FrozenFingerprint     string            `json:"frozenFingerprint"`
	ForceMismatchOverride bool              `json:"forceMismatchOverride"`
	Items                 []store.BatchItem `json:"items"`
}

// postItemsBatch persists pending annotations: the frozen frame becomes the evidence
// screen, each node or area target gets a crop, and the store applies idempotency and
// the ETag rules in one transaction.
func (a *App) postItemsBatch(w http.ResponseWriter, r *http.Request) {
	var req batchRequest
	if err := decodeJSON(r, &req); err != nil {
		writeError(w, err)
		return
	}
	if req.SessionID == "" {
		writeError(w, invalidInput("sessionId is required"))
		return
	}
	in := store.SaveBatchInput{
		SessionID:   req.SessionID,
		PreviewID:   req.PreviewID,
		WorkspaceID: req.WorkspaceID,
		IfMatch:     strings.Trim(r.Header.Get("If-Match"), `"`),
		Items:       req.Items,
	}
	if r.Header.Get("If-Match") == "*" {
		in.IfMatch = "*"
	}
	if fr, ok := a.device.Frozen(req.PreviewID); ok {
		if req.FrozenFingerprint != "" && !req.ForceMismatchOverride {
			if err := a.checkFingerprint(r.Context(), fr, req.FrozenFingerprint); err != nil {
				writeError(w, err)
				return
			}
		}
		in.Screen = screenInputOf(fr)
		for i := range in.Items {
			in.Items[i].CropPNG = cropFor(fr, in.Items[i].Target)
		}
	}
	res, err := a.store.SaveBatch(r.Context(), in)
	if err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("ETag", quoteETag(res.ETag))
	writeJSON(w, http.StatusOK, res)
}

func (a *App) putItem(w http.ResponseWriter, r *http.Request) {
	var req struct {
		SessionID string `json:"sessionId"`
		store.ItemUpdate
	}
	if err := decodeJSON(r, &req); err != nil {
		writeError(w, err)
		return
	}
	it, err := a.store.UpdateItem(r.Context(), req.SessionID, r.PathValue("id"), req.ItemUpdate)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, ItemDoc{Item: it})
}

func (a *App) deleteItem(w http.ResponseWriter, r *http.Request) {
	if err := a.store.DeleteItem(r.Context(), r.URL.Query().Get("sessionId"), r.PathValue("id")); err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, OK{OK: true})
}

func (a *App) deleteDraftItems(w http.ResponseWriter, r *http.Request) {
	n, err := a.store.DeleteDraftItems(r.Context(), r.URL.Query().Get("sessionId"))
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, Deleted{Deleted: n})
}

func (a *App) postItemAnswer(w http.ResponseWriter, r *http.Request) {
	var req struct {
		SessionID string `json:"sessionId"`
		Answer    string `json:"answer"`
	}
	if err := decodeJSON(r, &req); err != nil {
		writeError(w, err)
		return
	}
	it, err := a.store.AnswerQuestion(r.Context(), req.SessionID, r.PathValue("id"), req.Answer)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, ItemDoc{Item: it})
}

func (a *App) postItemResolve(w http.ResponseWriter, r *http.Request) {
	var req struct {
		SessionID string `json:"sessionId"`
		Status    string `json:"status"`
	}
	if err := decodeJSON(r, &req); err != nil {
		writeError(w, err)
		return
	}
	it, err := a.store.ResolveByUser(r.Context(), req.SessionID, r.PathValue("id"), req.Status)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, ItemDoc{Item: it})
}

func (a *App) getItemCrop(w http.ResponseWriter, r *http.Request) {
	sess, err := a.store.GetSession(r.Context(), r.URL.Query().Get("sessionId"))
	if err != nil {
		writeError(w, err)
		return
	}
	for _, it := range sess.Items {
		if it.ItemID == r.PathValue("id") {
			if it.CropArtifact == "" {
				break
			}
			a.serveArtifact(w, r, it.CropArtifact, "image/png")
			return
		}
	}
	writeError(w, errcode.New(errcode.ScreenNotFound, "item %s has no crop in session %s", r.PathValue("id"), sess.SessionID))
}

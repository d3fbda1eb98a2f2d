package feedbackapi

import (
	"net/http"
	"strings"

	"fixthis/app/errcode"
	"fixthis/app/feedback"
	"fixthis/app/httpapi"
	"fixthis/app/store"
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

// BatchRequest is the body of POST /api/items/batch.
type BatchRequest struct {
	SessionID             string            `json:"sessionId"`
	FrozenID              string            `json:"frozenId"`
	WorkspaceID           string            `json:"workspaceId"`
	FrozenFingerprint     string            `json:"frozenFingerprint"`
	ForceMismatchOverride bool              `json:"forceMismatchOverride,omitempty"`
	Items                 []store.BatchItem `json:"items"`
}

// PostItemsBatch persists pending annotations (feedback.Service.SaveItems).
func (h Routes) PostItemsBatch(w http.ResponseWriter, r *http.Request) {
	var req BatchRequest
	if err := httpapi.DecodeJSON(r, &req); err != nil {
		httpapi.WriteError(w, err)
		return
	}
	res, err := h.Feedback.SaveItems(r.Context(), feedback.SaveRequest{SessionID: req.SessionID, FrozenID: req.FrozenID,
		WorkspaceID: req.WorkspaceID, FrozenFingerprint: req.FrozenFingerprint,
		ForceMismatchOverride: req.ForceMismatchOverride, IfMatch: ifMatchOf(r), Items: req.Items})
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	w.Header().Set("ETag", httpapi.QuoteETag(res.ETag))
	httpapi.WriteJSON(w, http.StatusOK, res)
}

// ifMatchOf is the request's If-Match: "*" (force), an ETag, or "".
func ifMatchOf(r *http.Request) string {
	if r.Header.Get("If-Match") == "*" {
		return "*"
	}
	return strings.Trim(r.Header.Get("If-Match"), `"`)
}

// ItemUpdateRequest is the body of PUT /api/items/{id}: the fields to change.
type ItemUpdateRequest struct {
	SessionID string `json:"sessionId"`
	store.ItemUpdate
}

func (h Routes) PutItem(w http.ResponseWriter, r *http.Request) {
	var req ItemUpdateRequest
	if err := httpapi.DecodeJSON(r, &req); err != nil {
		httpapi.WriteError(w, err)
		return
	}
	it, err := h.Store.UpdateItem(r.Context(), req.SessionID, r.PathValue("id"), req.ItemUpdate)
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, ItemDoc{Item: it})
}

func (h Routes) DeleteItem(w http.ResponseWriter, r *http.Request) {
	if err := h.Store.DeleteItem(r.Context(), r.URL.Query().Get("sessionId"), r.PathValue("id")); err != nil {
		httpapi.WriteError(w, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, httpapi.OK{OK: true})
}

func (h Routes) DeleteDraftItems(w http.ResponseWriter, r *http.Request) {
	n, err := h.Store.DeleteDraftItems(r.Context(), r.URL.Query().Get("sessionId"))
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, Deleted{Deleted: n})
}

// AnswerRequest is the body of POST /api/items/{id}/answer.
type AnswerRequest struct {
	SessionID string `json:"sessionId"`
	Answer    string `json:"answer"`
}

func (h Routes) PostItemAnswer(w http.ResponseWriter, r *http.Request) {
	var req AnswerRequest
	if err := httpapi.DecodeJSON(r, &req); err != nil {
		httpapi.WriteError(w, err)
		return
	}
	it, err := h.Store.AnswerQuestion(r.Context(), req.SessionID, r.PathValue("id"), req.Answer)
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, ItemDoc{Item: it})
}

// ResolveStatus is how the user may close an item: the two terminal item
// statuses, never one of the agent's working ones.
type ResolveStatus string

// ResolveStatuses lists every ResolveStatus.
var ResolveStatuses = []ResolveStatus{ResolveStatus(store.StatusResolved), ResolveStatus(store.StatusWontFix)}

// ResolveRequest is the body of POST /api/items/{id}/resolve.
type ResolveRequest struct {
	SessionID string        `json:"sessionId"`
	Status    ResolveStatus `json:"status"`
}

func (h Routes) PostItemResolve(w http.ResponseWriter, r *http.Request) {
	var req ResolveRequest
	if err := httpapi.DecodeJSON(r, &req); err != nil {
		httpapi.WriteError(w, err)
		return
	}
	it, err := h.Store.ResolveByUser(r.Context(), req.SessionID, r.PathValue("id"), store.ItemStatus(req.Status))
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, ItemDoc{Item: it})
}

func (h Routes) GetItemCrop(w http.ResponseWriter, r *http.Request) {
	sess, err := h.Store.GetSession(r.Context(), r.URL.Query().Get("sessionId"))
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	for _, it := range sess.Items {
		if it.ItemID == r.PathValue("id") {
			if it.CropArtifact == "" {
				break
			}
			ServeArtifact(w, r, h.Store, it.CropArtifact, "image/png")
			return
		}
	}
	httpapi.WriteError(w, errcode.New(errcode.ScreenNotFound, "item %s has no crop in session %s", errcode.Quote(r.PathValue("id")), sess.SessionID))
}

// VerdictRequest is the body of POST /api/items/{id}/verify and /reopen (which
// alone reads Note).
type VerdictRequest struct {
	SessionID string `json:"sessionId"`
	Note      string `json:"note,omitempty"`
}

// PostItemVerify is "Looks right": the user agrees with the agent's verified fix.
func (h Routes) PostItemVerify(w http.ResponseWriter, r *http.Request) {
	var req VerdictRequest
	if err := httpapi.DecodeJSON(r, &req); err != nil {
		httpapi.WriteError(w, err)
		return
	}
	it, err := h.Store.ConfirmFix(r.Context(), req.SessionID, r.PathValue("id"))
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, ItemDoc{Item: it})
}

// PostItemReopen is "Reopen": the item goes back to the agent with the user's note.
func (h Routes) PostItemReopen(w http.ResponseWriter, r *http.Request) {
	var req VerdictRequest
	if err := httpapi.DecodeJSON(r, &req); err != nil {
		httpapi.WriteError(w, err)
		return
	}
	it, err := h.Store.Reopen(r.Context(), req.SessionID, r.PathValue("id"), req.Note)
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, ItemDoc{Item: it})
}

// DismissRequest is the body of POST /api/preview/{id}/audit/dismiss: the key of
// the finding (audit.Finding.Key) to keep dismissed on this screen.
type DismissRequest struct {
	Key string `json:"key"`
}

// PostPreviewAudit audits a frozen screen (feedback.Service.AuditFrozen); with
// ?dynamic=true also at font scale 2, dark and right to left on the phone, which is
// put back afterwards (feedback.Service.AuditFrozenDynamic).
func (h Routes) PostPreviewAudit(w http.ResponseWriter, r *http.Request) {
	audit := h.Feedback.AuditFrozen
	switch r.URL.Query().Get("dynamic") {
	case "", "false":
	case "true":
		audit = h.Feedback.AuditFrozenDynamic
	default:
		httpapi.WriteError(w, errcode.New(errcode.InvalidInput, "dynamic is true or false, not %s", errcode.Quote(r.URL.Query().Get("dynamic"))))
		return
	}
	res, err := audit(r.Context(), r.PathValue("id"))
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, res)
}

// PostPreviewAuditDismiss keeps one finding dismissed on the frozen screen's screen.
func (h Routes) PostPreviewAuditDismiss(w http.ResponseWriter, r *http.Request) {
	var req DismissRequest
	if err := httpapi.DecodeJSON(r, &req); err != nil {
		httpapi.WriteError(w, err)
		return
	}
	if err := h.Feedback.DismissFinding(r.Context(), r.PathValue("id"), req.Key); err != nil {
		httpapi.WriteError(w, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, httpapi.OK{OK: true})
}

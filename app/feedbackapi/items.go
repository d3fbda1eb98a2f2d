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

// decodeItem is httpapi.DecodeAnswer for the item routes, whose body is required and
// whose answer is the changed item.
func decodeItem[Req any](w http.ResponseWriter, r *http.Request, do func(Req) (*store.Item, error)) {
	httpapi.DecodeAnswer(w, r, httpapi.DecodeJSON, func(req Req) (ItemDoc, error) {
		it, err := do(req)
		return ItemDoc{Item: it}, err
	})
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
	decodeItem(w, r, func(req ItemUpdateRequest) (*store.Item, error) {
		return h.Store.UpdateItem(r.Context(), req.SessionID, r.PathValue("id"), req.ItemUpdate)
	})
}

func (h Routes) DeleteItem(w http.ResponseWriter, r *http.Request) {
	httpapi.Answer(w, httpapi.OK{OK: true}, h.Store.DeleteItem(r.Context(), r.URL.Query().Get("sessionId"), r.PathValue("id")))
}

func (h Routes) DeleteDraftItems(w http.ResponseWriter, r *http.Request) {
	n, err := h.Store.DeleteDraftItems(r.Context(), r.URL.Query().Get("sessionId"))
	httpapi.Answer(w, Deleted{Deleted: n}, err)
}

// AnswerRequest is the body of POST /api/items/{id}/answer.
type AnswerRequest struct {
	SessionID string `json:"sessionId"`
	Answer    string `json:"answer"`
}

func (h Routes) PostItemAnswer(w http.ResponseWriter, r *http.Request) {
	decodeItem(w, r, func(req AnswerRequest) (*store.Item, error) {
		return h.Store.AnswerQuestion(r.Context(), req.SessionID, r.PathValue("id"), req.Answer)
	})
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
	decodeItem(w, r, func(req ResolveRequest) (*store.Item, error) {
		return h.Store.ResolveByUser(r.Context(), req.SessionID, r.PathValue("id"), store.ItemStatus(req.Status))
	})
}

func (h Routes) GetItemCrop(w http.ResponseWriter, r *http.Request) {
	h.serveFromSession(w, r, func(sess *store.Session) (string, error) {
		for _, it := range sess.Items {
			if it.ItemID == r.PathValue("id") && it.CropArtifact != "" {
				return it.CropArtifact, nil
			}
		}
		return "", errcode.New(errcode.ScreenNotFound, "item %s has no crop in session %s", errcode.Quote(r.PathValue("id")), sess.SessionID)
	})
}

// VerdictRequest is the body of POST /api/items/{id}/verify and /reopen (which
// alone reads Note).
type VerdictRequest struct {
	SessionID string `json:"sessionId"`
	Note      string `json:"note,omitempty"`
}

// PostItemVerify is "Looks right": the user agrees with the agent's verified fix.
func (h Routes) PostItemVerify(w http.ResponseWriter, r *http.Request) {
	decodeItem(w, r, func(req VerdictRequest) (*store.Item, error) {
		return h.Store.ConfirmFix(r.Context(), req.SessionID, r.PathValue("id"))
	})
}

// PostItemReopen is "Reopen": the item goes back to the agent with the user's note.
func (h Routes) PostItemReopen(w http.ResponseWriter, r *http.Request) {
	decodeItem(w, r, func(req VerdictRequest) (*store.Item, error) {
		return h.Store.Reopen(r.Context(), req.SessionID, r.PathValue("id"), req.Note)
	})
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
	httpapi.Answer(w, res, err)
}

// PostPreviewAuditDismiss keeps one finding dismissed on the frozen screen's screen.
func (h Routes) PostPreviewAuditDismiss(w http.ResponseWriter, r *http.Request) {
	httpapi.DecodeAnswer(w, r, httpapi.DecodeJSON, func(req DismissRequest) (httpapi.OK, error) {
		return httpapi.OK{OK: true}, h.Feedback.DismissFinding(r.Context(), r.PathValue("id"), req.Key)
	})
}

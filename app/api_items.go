package app

import (
	"fixthis/app/errcode"
	"fixthis/app/store"
	"net/http"
	"strings"
	"sync"
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

// postItemsBatch persists pending annotations: the frozen frame becomes the evidence
// screen, each node or area target gets a crop, and the store applies idempotency and
// the ETag rules in one transaction.
func (a *App) postItemsBatch(w http.ResponseWriter, r *http.Request) {
	var req BatchRequest
	if err := decodeJSON(r, &req); err != nil {
		writeError(w, err)
		return
	}
	if req.SessionID == "" {
		writeError(w, invalidInput("sessionId is required"))
		return
	}
	if req.FrozenID == "" && store.ClipNotes(req.Items) {
		// Screen notes carried by their clips alone ("the transition is janky").
		a.saveBatch(w, r, store.SaveBatchInput{SessionID: req.SessionID, WorkspaceID: req.WorkspaceID,
			IfMatch: ifMatchOf(r), Items: req.Items})
		return
	}
	if req.FrozenID == "" {
		// Items are drawn on a frozen screen; without it they have no image, crop or size.
		writeError(w, invalidInput("frozenId is required: the frozen screen the items were drawn on"))
		return
	}
	in := store.SaveBatchInput{
		SessionID:   req.SessionID,
		FrozenID:    req.FrozenID,
		WorkspaceID: req.WorkspaceID,
		IfMatch:     ifMatchOf(r),
		Items:       req.Items,
	}
	in.Forced = req.ForceMismatchOverride
	// One save per frozen frame at a time: a second one (another tab, a
	// double click) is told to retry rather than racing the first.
	release, ok := a.savesInFlight.start(req.SessionID + "\x00" + req.FrozenID)
	if !ok {
		writeError(w, errcode.New(errcode.SaveInProgress, "another save of this frozen screen is running; retry in a moment"))
		return
	}
	defer release()
	if fr, ok := a.device.Frozen(req.FrozenID); ok {
		// A clip records a screen in motion: that the phone has moved on since
		// is what the note is about, not a sign it describes a screen left behind.
		if req.FrozenFingerprint != "" && !req.ForceMismatchOverride && !store.ClipNotes(req.Items) {
			if err := a.checkFingerprint(r.Context(), fr); err != nil {
				writeError(w, err)
				return
			}
		}
		in.Screen = screenInputOf(fr)
		in.Screen.Display.Conditions = a.screenConditions(r.Context(), fr.Serial)
		for i := range in.Items {
			in.Items[i].CropPNG = cropFor(fr, in.Items[i].Target)
		}
	} else {
		// A draft made on a frame this process no longer has (FixThis restarted,
		// or the frame expired) is never saved without its image; a retry of a
		// save that already stored the screen needs no frame.
		saved, err := a.store.PreviewScreenSaved(r.Context(), req.SessionID, req.FrozenID)
		if err != nil {
			writeError(w, err)
			return
		}
		if !saved {
			writeError(w, errcode.New(errcode.PreviewNotFound, "the frozen screen %s is gone (FixThis restarted or it expired); "+
				"recapture the screen and annotate again", errcode.Quote(req.FrozenID)))
			return
		}
	}
	a.saveBatch(w, r, in)
}

func (a *App) saveBatch(w http.ResponseWriter, r *http.Request, in store.SaveBatchInput) {
	res, err := a.store.SaveBatch(r.Context(), in)
	if err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("ETag", quoteETag(res.ETag))
	writeJSON(w, http.StatusOK, res)
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

func (a *App) putItem(w http.ResponseWriter, r *http.Request) {
	var req ItemUpdateRequest
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

// AnswerRequest is the body of POST /api/items/{id}/answer.
type AnswerRequest struct {
	SessionID string `json:"sessionId"`
	Answer    string `json:"answer"`
}

func (a *App) postItemAnswer(w http.ResponseWriter, r *http.Request) {
	var req AnswerRequest
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

// ResolveRequest is the body of POST /api/items/{id}/resolve.
type ResolveRequest struct {
	SessionID string `json:"sessionId"`
	Status    string `json:"status"` // resolved or wont_fix
}

func (a *App) postItemResolve(w http.ResponseWriter, r *http.Request) {
	var req ResolveRequest
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
	writeError(w, errcode.New(errcode.ScreenNotFound, "item %s has no crop in session %s", errcode.Quote(r.PathValue("id")), sess.SessionID))
}

// VerdictRequest is the body of POST /api/items/{id}/verify and /reopen (which
// alone reads Note).
type VerdictRequest struct {
	SessionID string `json:"sessionId"`
	Note      string `json:"note,omitempty"`
}

// postItemVerify is "Looks right": the user agrees with the agent's verified fix.
func (a *App) postItemVerify(w http.ResponseWriter, r *http.Request) {
	var req VerdictRequest
	if err := decodeJSON(r, &req); err != nil {
		writeError(w, err)
		return
	}
	it, err := a.store.ConfirmFix(r.Context(), req.SessionID, r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, ItemDoc{Item: it})
}

// postItemReopen is "Reopen": the item goes back to the agent with the user's note.
func (a *App) postItemReopen(w http.ResponseWriter, r *http.Request) {
	var req VerdictRequest
	if err := decodeJSON(r, &req); err != nil {
		writeError(w, err)
		return
	}
	it, err := a.store.Reopen(r.Context(), req.SessionID, r.PathValue("id"), req.Note)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, ItemDoc{Item: it})
}

// inFlight tracks keys with a request running.
type inFlight struct {
	mu   sync.Mutex
	keys map[string]bool
}

// start marks key busy; ok is false when it already was. release frees it.
func (f *inFlight) start(key string) (release func(), ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.keys[key] {
		return nil, false
	}
	if f.keys == nil {
		f.keys = map[string]bool{}
	}
	f.keys[key] = true
	return func() {
		f.mu.Lock()
		delete(f.keys, key)
		f.mu.Unlock()
	}, true
}

package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"fixthis/app/store"
	"fixthis/capture"
)

// Session, item and evidence routes. The store owns every rule and transaction; these
// handlers decode, call one store operation and encode. Session events reach the
// console through the store's change feed (see publishStoreChanges), the same path
// another process's commits take.

func (a *App) getSessions(w http.ResponseWriter, r *http.Request) {
	list, err := a.store.ListSessions(r.Context())
	if err != nil {
		writeStoreError(w, err)
		return
	}
	if list == nil {
		list = []store.SessionSummary{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"sessions": list})
}

func (a *App) postSessions(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Title string `json:"title"`
	}
	if r.ContentLength != 0 {
		if err := decodeJSON(r, &req); err != nil {
			writeError(w, err)
			return
		}
	}
	sess, err := a.store.CreateSession(r.Context(), req.Title)
	if err != nil {
		writeStoreError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"sessionId": sess.SessionID, "session": sess})
}

func (a *App) getSession(w http.ResponseWriter, r *http.Request) {
	sess, err := a.store.GetSession(r.Context(), r.PathValue("id"))
	if err != nil {
		writeStoreError(w, err)
		return
	}
	w.Header().Set("ETag", quoteETag(sess.ETag))
	writeJSON(w, http.StatusOK, map[string]any{"session": sess})
}

func (a *App) putSession(w http.ResponseWriter, r *http.Request) {
	var u store.SessionUpdate
	if err := decodeJSON(r, &u); err != nil {
		writeError(w, err)
		return
	}
	sess, err := a.store.UpdateSession(r.Context(), r.PathValue("id"), u)
	if err != nil {
		writeStoreError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"session": sess})
}

func (a *App) deleteSession(w http.ResponseWriter, r *http.Request) {
	if err := a.store.DeleteSession(r.Context(), r.PathValue("id")); err != nil {
		writeStoreError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func (a *App) postSessionClose(w http.ResponseWriter, r *http.Request) {
	sess, err := a.store.CloseSession(r.Context(), r.PathValue("id"))
	if err != nil {
		writeStoreError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"session": sess})
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
		writeError(w, errorf(http.StatusUnprocessableEntity, "invalid_input", "INVALID_INPUT: sessionId is required"))
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
	fr := a.frozen.get(req.PreviewID)
	if fr != nil {
		if req.FrozenFingerprint != "" && !req.ForceMismatchOverride {
			if err := a.checkFingerprint(r.Context(), fr, req.FrozenFingerprint); err != nil {
				writeStoreError(w, err)
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
		writeStoreError(w, err)
		return
	}
	w.Header().Set("ETag", quoteETag(res.ETag))
	writeJSON(w, http.StatusOK, res)
}

// checkFingerprint compares the frozen screen with a lightweight capture of the device
// now (one frame and the foreground activity, no UI dump): a different activity or
// orientation, or a frame that no longer looks the same, means the user is about to
// save notes about a screen the device has left.
func (a *App) checkFingerprint(ctx context.Context, fr *frozenFrame, frozen string) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	snap, err := capture.Capture(ctx, a.captureDevice(fr.Serial), capture.Options{SkipTree: true})
	if err != nil {
		// The device is gone or busy: the frozen evidence is still valid, save it.
		a.log.Warn("fingerprint check skipped", "serial", fr.Serial, "err", err)
		return nil
	}
	// Without a fresh UI dump only the structural and perceptual parts compare.
	then := fr.Snapshot.Fingerprint
	then.Structure = ""
	now := snap.Fingerprint
	now.Structure = ""
	if then.Matches(now) {
		return nil
	}
	current := now.Structural + ":" + now.Perceptual
	return &store.FingerprintMismatchError{FrozenFingerprint: frozen, CurrentFingerprint: current}
}

func screenInputOf(fr *frozenFrame) store.ScreenInput {
	s := fr.Snapshot
	nodes, _ := json.Marshal(s.Nodes)
	return store.ScreenInput{
		Fingerprint: s.Fingerprint.String(),
		Package:     s.State.Package,
		Activity:    s.State.Activity,
		Width:       s.Width,
		Height:      s.Height,
		ImagePNG:    fr.PNG,
		NodesJSON:   nodes,
	}
}

// cropFor renders the evidence crop of a node or area target (none for screen notes).
func cropFor(fr *frozenFrame, t store.Target) []byte {
	if t.Bounds == nil || t.Type == store.TargetScreen {
		return nil
	}
	var buf bytes.Buffer
	b := capture.Bounds{Left: t.Bounds.Left, Top: t.Bounds.Top, Right: t.Bounds.Right, Bottom: t.Bounds.Bottom}
	if _, err := capture.EncodeCropPNG(&buf, fr.Snapshot.Frame, b, 24); err != nil {
		return nil
	}
	return buf.Bytes()
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
		writeStoreError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"item": it})
}

func (a *App) deleteItem(w http.ResponseWriter, r *http.Request) {
	if err := a.store.DeleteItem(r.Context(), r.URL.Query().Get("sessionId"), r.PathValue("id")); err != nil {
		writeStoreError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func (a *App) deleteDraftItems(w http.ResponseWriter, r *http.Request) {
	n, err := a.store.DeleteDraftItems(r.Context(), r.URL.Query().Get("sessionId"))
	if err != nil {
		writeStoreError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]int{"deleted": n})
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
		writeStoreError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"item": it})
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
		writeStoreError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"item": it})
}

func (a *App) getScreenImage(w http.ResponseWriter, r *http.Request) {
	sess, err := a.store.GetSession(r.Context(), r.URL.Query().Get("sessionId"))
	if err != nil {
		writeStoreError(w, err)
		return
	}
	for _, sc := range sess.Screens {
		if sc.ScreenID == r.PathValue("screenId") {
			a.serveArtifact(w, r, sc.ImageArtifact, "image/png")
			return
		}
	}
	writeError(w, errorf(http.StatusNotFound, "screen_not_found", "SCREEN_NOT_FOUND: no screen %s in session %s", r.PathValue("screenId"), sess.SessionID))
}

func (a *App) getItemCrop(w http.ResponseWriter, r *http.Request) {
	sess, err := a.store.GetSession(r.Context(), r.URL.Query().Get("sessionId"))
	if err != nil {
		writeStoreError(w, err)
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
	writeError(w, errorf(http.StatusNotFound, "screen_not_found", "SCREEN_NOT_FOUND: item %s has no crop in session %s", r.PathValue("id"), sess.SessionID))
}

func (a *App) serveArtifact(w http.ResponseWriter, r *http.Request, key, contentType string) {
	data, err := a.store.ReadArtifact(r.Context(), key)
	if err != nil {
		writeError(w, errorf(http.StatusNotFound, "screen_not_found", "SCREEN_NOT_FOUND: evidence file is missing: %v", err))
		return
	}
	w.Header().Set("Content-Type", contentType)
	// Artifacts are named by content hash: they never change.
	w.Header().Set("Cache-Control", "private, max-age=31536000, immutable")
	_, _ = w.Write(data)
}

// writeStoreError renders store errors with their contract prefix in the message and
// the extra fields the console's dialogs need (412 server draft, 409 fingerprints).
func writeStoreError(w http.ResponseWriter, err error) {
	status, code := store.HTTPStatus(err)
	body := map[string]any{"error": code, "message": err.Error()}
	var stale *store.StaleDraftError
	var mismatch *store.FingerprintMismatchError
	switch {
	case errors.As(err, &stale):
		body["state"] = "STALE_PREVIEW"
		body["serverDraft"] = stale.ServerDraft
		body["etag"] = quoteETag(stale.ETag)
	case errors.As(err, &mismatch):
		body["error"] = "screen_fingerprint_mismatch"
		body["frozenFingerprint"] = mismatch.FrozenFingerprint
		body["currentFingerprint"] = mismatch.CurrentFingerprint
	}
	if status == http.StatusInternalServerError {
		var ae *apiError
		if errors.As(err, &ae) {
			writeError(w, err)
			return
		}
	}
	writeJSON(w, status, body)
}

func quoteETag(tag string) string {
	if tag == "" || strings.HasPrefix(tag, `"`) {
		return tag
	}
	return `"` + tag + `"`
}

package app

import (
	"net/http"

	"fixthis/app/errcode"
	"fixthis/app/feedback"
	"fixthis/app/handoff"
	"fixthis/app/httpapi"
	"fixthis/app/source"
	"fixthis/app/store"
)

// Session routes. The store owns every rule and transaction; these handlers decode,
// call one store operation and encode. Session events reach the console through the
// store's change feed (see publishStoreChanges), the same path another process's
// commits take.

// feedbackRoutes serve sessions, items, handoffs and runtime evidence: each decodes,
// calls the store or the feedback core, and encodes.
type feedbackRoutes struct {
	store    *store.Store
	feedback *feedback.Service
	prompts  *handoff.Builder
	sources  *source.Live
}

// SessionList is the body of GET /api/sessions.
type SessionList struct {
	Sessions []store.SessionSummary `json:"sessions"`
}

// SessionDoc carries one session; SessionID is set when it was just created.
type SessionDoc struct {
	SessionID string         `json:"sessionId,omitempty"`
	Session   *store.Session `json:"session"`
}

func (h feedbackRoutes) getSessions(w http.ResponseWriter, r *http.Request) {
	list, err := h.store.ListSessions(r.Context())
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	if list == nil {
		list = []store.SessionSummary{}
	}
	httpapi.WriteJSON(w, http.StatusOK, SessionList{Sessions: list})
}

// NewSessionRequest is the body of POST /api/sessions; it may be empty.
type NewSessionRequest struct {
	Title string `json:"title,omitempty"`
}

func (h feedbackRoutes) postSessions(w http.ResponseWriter, r *http.Request) {
	var req NewSessionRequest
	if err := httpapi.DecodeOptionalJSON(r, &req); err != nil {
		httpapi.WriteError(w, err)
		return
	}
	sess, err := h.store.CreateSession(r.Context(), req.Title)
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, SessionDoc{SessionID: sess.SessionID, Session: sess})
}

func (h feedbackRoutes) getSession(w http.ResponseWriter, r *http.Request) {
	sess, err := h.store.GetSession(r.Context(), r.PathValue("id"))
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	w.Header().Set("ETag", httpapi.QuoteETag(sess.ETag))
	httpapi.WriteJSON(w, http.StatusOK, SessionDoc{Session: sess})
}

func (h feedbackRoutes) putSession(w http.ResponseWriter, r *http.Request) {
	var u store.SessionUpdate
	if err := httpapi.DecodeJSON(r, &u); err != nil {
		httpapi.WriteError(w, err)
		return
	}
	sess, err := h.store.UpdateSession(r.Context(), r.PathValue("id"), u)
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, SessionDoc{Session: sess})
}

func (h feedbackRoutes) deleteSession(w http.ResponseWriter, r *http.Request) {
	if err := h.store.DeleteSession(r.Context(), r.PathValue("id")); err != nil {
		httpapi.WriteError(w, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, OK{OK: true})
}

func (h feedbackRoutes) postSessionClose(w http.ResponseWriter, r *http.Request) {
	sess, err := h.store.CloseSession(r.Context(), r.PathValue("id"))
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, SessionDoc{Session: sess})
}

func (h feedbackRoutes) getScreenImage(w http.ResponseWriter, r *http.Request) {
	sess, err := h.store.GetSession(r.Context(), r.URL.Query().Get("sessionId"))
	if err != nil {
		httpapi.WriteError(w, err)
		return
	}
	for _, sc := range sess.Screens {
		if sc.ScreenID == r.PathValue("screenId") {
			if sc.ImageArtifact == "" {
				httpapi.WriteError(w, errcode.New(errcode.ScreenshotNotFound, "screen %s was saved without a screenshot", sc.ScreenID))
				return
			}
			serveArtifact(w, r, h.store, sc.ImageArtifact, "image/png")
			return
		}
	}
	httpapi.WriteError(w, errcode.New(errcode.ScreenNotFound, "no screen %s in session %s", errcode.Quote(r.PathValue("screenId")), sess.SessionID))
}

// serveArtifact answers with a stored artifact (a screenshot, a crop, a capture).
func serveArtifact(w http.ResponseWriter, r *http.Request, st *store.Store, key, contentType string) {
	data, err := st.ReadArtifact(r.Context(), key)
	if err != nil {
		httpapi.WriteError(w, errcode.Wrap(errcode.ScreenshotNotFound, err, "the screenshot file is missing from .fixthis/artifacts"))
		return
	}
	w.Header().Set("Content-Type", contentType)
	// Artifacts are named by content hash: they never change.
	w.Header().Set("Cache-Control", "private, max-age=31536000, immutable")
	_, _ = w.Write(data)
}
